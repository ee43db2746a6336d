import type { Command } from 'commander';
import { loadConfig, type AppConfig } from '../config/config.js';
import { connectDatabase } from '../db/connect.js';
import type { Db } from '../db/database.js';
import { failureName } from '../db/refused-values.js';
import { DomainError } from '../kernel/errors.js';
import type { After } from '../kernel/keyset.js';
import { paymentGatewaysFor } from '../payments/gateways.js';
import { changeDepsFor } from './deps.js';
import { recoverPolicyChanges } from './recovery.js';
import { resolveChange } from '../work-queues/actions.js';
import { ChangeNotInAttention } from '../work-queues/errors.js';
import { attentionQueue } from './attention.js';

/** Operator commands of amendments and cancellations (README, "Operator commands"). */
export function registerPolicyChangeCommands(program: Command, config: () => AppConfig = loadConfig): void {
  const changes = program.command('policy-changes').description('Amendment and cancellation operations.');
  const run = (name: string, action: (db: Db, settings: AppConfig) => Promise<void>) => async () => {
    const settings = config();
    const db = connectDatabase(settings.database);
    try {
      await action(db, settings);
    } catch (error) {
      process.stderr.write(`policy-changes ${name} could not run: ${failureName(error)}\n`);
      process.exitCode = 2;
    } finally {
      await db.destroy();
    }
  };
  changes
    .command('recover')
    .description('Finish confirmations left in flight (as every server does at start and in its sweep).')
    .action(
      run('recover', async (db, settings) => {
        const context = { config: settings, db, clock: () => new Date() };
        const report = await recoverPolicyChanges(changeDepsFor(context, paymentGatewaysFor(context)), {
          graceSeconds: settings.purchaseRecoveryGraceSeconds,
        });
        process.stdout.write(`${JSON.stringify(report)}\n`);
        if (report.problems.length > 0) process.exitCode = 1;
      }),
    );
  changes
    .command('attention')
    .description(
      'List changes an operator must settle: a refund that ended part-way (refused, or the gateway unavailable past the bound), a capture refused. Per change: what was refunded (and to which payments), what is owed still, whether its transaction was written.',
    )
    .action(
      run('attention', async (db) => {
        process.stdout.write(
          'id\tpolicy\tkind\tamount_minor\trefunded_minor\toutstanding_minor\trefunded_to\tbooked_sequence\treason\tupdated_at\n',
        );
        let after: After | undefined;
        do {
          const page = await attentionQueue(db, { limit: 500, ...(after ? { after } : {}) });
          for (const c of page.items) {
            const to = c.refundedTo.map((line) => `${line.paymentId}:${line.amountMinor}`).join(',');
            process.stdout.write(
              `${c.id}\t${c.policyNumber}\t${c.kind}\t${c.amountMinor}\t${c.refundedMinor}\t${c.outstandingMinor}\t${to}\t${c.bookedSequence ?? ''}\t${c.reason ?? ''}\t${c.since}\n`,
            );
          }
          after = page.next;
        } while (after);
      }),
    );
  changes
    .command('resolve <id>')
    .description(
      "Mark an ATTENTION change as settled outside the API (the money put right by hand): it becomes RESOLVED and the policy may be changed again. Recorded in the operators' audit trail (as the command line).",
    )
    .option('--reason <text>', 'why, as the audit trail keeps it (the console requires one)')
    .action((id: string, options: { reason?: string }) =>
      run('resolve', async (db) => {
        try {
          await resolveChange({ db, clock: () => new Date() }, 'COMMAND_LINE', id, options.reason);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          const text = error instanceof ChangeNotInAttention ? `no change ${id} needs attention` : error.message;
          process.stderr.write(`${text}\n`);
          process.exitCode = 1;
          return;
        }
        process.stdout.write(`${id} resolved\n`);
      })(),
    );
}
