import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import type { AppConfig } from '../config/config.js';
import { connectDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import {
  changeRole,
  createOperator,
  disableOperator,
  enableOperator,
  listOperators,
  resetSecondFactor,
  unlock,
} from './accounts.js';
import { operatorDepsFor, type OperatorDeps } from './deps.js';
import { OPERATOR_ROLES } from './model.js';
import type { NewSecondFactor } from './second-factor.js';

export interface OperatorCliOptions {
  /** Reads the configuration (src/cli.ts exits with the problems listed when it is invalid). */
  readonly config: () => AppConfig;
  readonly stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly stdout?: Writable;
}

async function withDeps<T>(options: OperatorCliOptions, work: (deps: OperatorDeps) => Promise<T>): Promise<T> {
  const config = options.config();
  const db = connectDatabase(config.database);
  try {
    await migrateToLatest(db);
    return await work(operatorDepsFor({ config, db, clock: () => new Date() }));
  } finally {
    await db.destroy();
  }
}

async function readPassword(stdin: NonNullable<OperatorCliOptions['stdin']>): Promise<string> {
  if (stdin.isTTY)
    throw new Error('Pipe the password on standard input (never an argument), or omit --password-stdin.');
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

const ROLES = OPERATOR_ROLES.join(', ');

/**
 * `operator …`: the console's accounts, managed from the host (there is no operator to do it yet).
 * Every change is in the audit trail with operator id 0 (operators/audit.ts, NO_OPERATOR). Secrets
 * (a generated password, a TOTP secret) are printed once and kept only hashed or sealed.
 */
export function registerOperatorCommands(program: Command, options: OperatorCliOptions): void {
  const out = (line: string) => (options.stdout ?? process.stdout).write(`${line}\n`);
  const stdin = options.stdin ?? process.stdin;
  const showSecondFactor = (factor: NewSecondFactor) => {
    out('Second factor (shown only now): add it to an authenticator app from this URI (as a QR code) or the secret:');
    out(`  ${factor.uri}`);
    out(`  secret: ${factor.secret}`);
  };

  const operator = program.command('operator').description("Manage the console's operators (issue 31).");
  operator
    .command('create')
    .description('Create an operator with a password and a second factor (TOTP); both are shown once.')
    .requiredOption('--username <username>', 'sign-in name: 3–64 of a-z 0-9 . _ @ - (unique in any letter case)')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--role <role>', ROLES)
    .option('--password-stdin', 'read the password from standard input; otherwise one is generated and printed once')
    .option('--no-second-factor', 'no TOTP (refused when APP_ENV=production)')
    .action(
      async (o: { username: string; name: string; role: string; passwordStdin?: boolean; secondFactor: boolean }) => {
        const password = o.passwordStdin ? await readPassword(stdin) : undefined;
        const created = await withDeps(options, (deps) =>
          createOperator(deps, {
            username: o.username,
            displayName: o.name,
            role: o.role,
            ...(password === undefined ? {} : { password }),
            secondFactor: o.secondFactor,
          }),
        );
        out(`Created operator ${created.operator.username} (id ${created.operator.id}, ${created.operator.role}).`);
        if (created.generatedPassword) out(`Generated password (shown only now): ${created.generatedPassword}`);
        if (created.secondFactor) showSecondFactor(created.secondFactor);
      },
    );
  operator
    .command('list')
    .description(
      'Every operator, one per line: username, display name, role, ACTIVE/LOCKED/DISABLED, second factor, created.',
    )
    .action(async () => {
      const operators = await withDeps(options, (deps) => listOperators(deps));
      for (const o of operators)
        out(
          [o.username, o.displayName, o.role, o.status, o.hasSecondFactor ? 'TOTP' : 'NO-TOTP', o.createdAt].join('\t'),
        );
      if (operators.length === 0) out('No operators.');
    });
  operator
    .command('disable')
    .description('The operator can no longer sign in; every session of theirs ends at once.')
    .requiredOption('--username <username>', 'the operator')
    .action(async (o: { username: string }) => {
      const done = await withDeps(options, (deps) => disableOperator(deps, o.username));
      out(`Disabled operator ${done.username}; their sessions have ended.`);
    });
  operator
    .command('enable')
    .description('A disabled operator may sign in again.')
    .requiredOption('--username <username>', 'the operator')
    .action(async (o: { username: string }) => {
      const done = await withDeps(options, (deps) => enableOperator(deps, o.username));
      out(`Enabled operator ${done.username}.`);
    });
  operator
    .command('unlock')
    .description('Lift a lockout after failed sign-ins before it ends (OPERATOR_LOCKOUT_MINUTES).')
    .requiredOption('--username <username>', 'the operator')
    .action(async (o: { username: string }) => {
      const done = await withDeps(options, (deps) => unlock(deps, o.username));
      out(`Unlocked operator ${done.username}.`);
    });
  operator
    .command('reset-second-factor')
    .description("A new TOTP secret, shown once; the old one's codes stop working.")
    .requiredOption('--username <username>', 'the operator')
    .action(async (o: { username: string }) => {
      const done = await withDeps(options, (deps) => resetSecondFactor(deps, o.username));
      out(`New second factor for operator ${done.operator.username}.`);
      showSecondFactor(done.secondFactor);
    });
  operator
    .command('set-role')
    .description("Change an operator's role; in effect at their next request.")
    .requiredOption('--username <username>', 'the operator')
    .requiredOption('--role <role>', ROLES)
    .action(async (o: { username: string; role: string }) => {
      const done = await withDeps(options, (deps) => changeRole(deps, o.username, o.role));
      out(`Operator ${done.username} is now ${done.role}.`);
    });
}
