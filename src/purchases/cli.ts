import type { Command } from 'commander';
import { loadConfig, type AppConfig } from '../config/config.js';
import { connectDatabase } from '../db/connect.js';
import { failureName } from '../db/refused-values.js';
import { paymentGatewaysFor } from '../payments/gateways.js';
import { purchaseDepsFor } from './deps.js';
import { recoverPurchases } from './recovery.js';

/** Operator commands of the purchases area. */
export function registerPurchasesCommands(program: Command, config: () => AppConfig = loadConfig): void {
  const purchases = program.command('purchases').description('Purchase operations.');
  purchases
    .command('recover')
    .description(
      'Finish or undo purchases left in flight (issue and capture authorised ones, capture issued ones, replay unanswered authorisations, expire abandoned 3-D Secure challenges). Safe to run while servers run, and repeatedly.',
    )
    .option(
      '--grace-seconds <n>',
      'leave purchases changed within this many seconds alone (default PURCHASE_RECOVERY_GRACE_SECONDS)',
    )
    .action(async (options: { graceSeconds?: string }) => {
      const settings = config();
      const graceSeconds =
        options.graceSeconds === undefined ? settings.purchaseRecoveryGraceSeconds : Number(options.graceSeconds);
      if (!Number.isInteger(graceSeconds) || graceSeconds < 0)
        throw new Error('--grace-seconds must be a whole number ≥ 0');
      const db = connectDatabase(settings.database);
      try {
        const context = { config: settings, db, clock: () => new Date() };
        const report = await recoverPurchases(purchaseDepsFor(context, paymentGatewaysFor(context)), { graceSeconds });
        process.stdout.write(`${JSON.stringify(report)}\n`);
        // Exit codes (README, "Operator commands"): 0 all settled, 1 some records failed (named in the report).
        if (report.failures > 0) process.exitCode = 1;
      } catch (error) {
        // 2: the run itself could not happen (no database, listing refused); nothing was reported.
        process.stderr.write(`purchases recover could not run: ${failureName(error)}\n`);
        process.exitCode = 2;
      } finally {
        await db.destroy();
      }
    });
}
