#!/usr/bin/env node
import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import { buildApp } from './app.js';
import { registerCatalogueCommands } from './catalogue/cli.js';
import { ConfigError, loadConfig, type AppConfig } from './config/config.js';
import { connectDatabase, SqliteFileUnusable } from './db/connect.js';
import { migrateDown, migrateToLatest, SchemaBehind } from './db/migrate.js';
import { registerIdempotencyCommands } from './http/idempotency/cli.js';
import { registerOutboxCommands } from './db/outbox/cli.js';
import { registerPurchasesCommands } from './purchases/cli.js';
import { registerPolicyChangeCommands } from './policy-changes/cli.js';
import { startServer } from './server.js';
import { registerStatementsCommands } from './statements/cli.js';
import { registerAuthCommands } from './auth/cli.js';
import { registerScreeningCommands } from './screening/cli.js';
import { registerOperatorCommands } from './operators/cli.js';
import { registerPolicyNotesCommands } from './policy-notes/cli.js';

/** Reads configuration or exits with every problem listed (exit code 2). */
function configOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

async function serve(): Promise<void> {
  const config = configOrExit();
  const server = await startServer(config).catch((error: unknown) => {
    // Migrations are a deployment step of their own (MIGRATE_ON_START=false) and it has not run: exit 2, like bad settings.
    if (!(error instanceof SchemaBehind)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  });
  server.app.log.info({ url: server.url, env: config.env, database: config.database.kind }, 'serving');
  // Staging without SMTP_URL keeps the policy e-mails: say where to read them.
  if (config.env !== 'production' && config.mail.transport === 'sandbox')
    server.app.log.info({ mailbox: `${server.url}/sandbox/mail` }, 'policy e-mails are kept in the sandbox mailbox');
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      // Only what could not finish in time is cut: counted, so an operator sees how many clients must retry.
      server.app.log.error(
        { connections: server.openConnections() },
        'shutdown timed out; exiting with requests still open',
      );
      process.exit(1);
    }, config.shutdownDrainMs + config.shutdownTimeoutMs);
    timer.unref();
    server.close().then(
      () => {
        server.app.log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        server.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

async function migrate(options: { down?: boolean }): Promise<void> {
  const config = configOrExit();
  const db = connectDatabase(config.database);
  try {
    const applied = options.down ? await migrateDown(db) : await migrateToLatest(db);
    process.stdout.write(
      applied.length ? `${options.down ? 'Reverted' : 'Applied'}: ${applied.join(', ')}\n` : 'Nothing to do.\n',
    );
  } finally {
    await db.destroy();
  }
}

async function writeOpenApi(options: { out?: string }): Promise<void> {
  const config = configOrExit();
  const db = connectDatabase({ kind: 'sqlite', path: ':memory:' });
  const app = await buildApp({ config, db, clock: () => new Date() }, { logger: false });
  try {
    await app.ready();
    const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
    if (options.out) await writeFile(options.out, document);
    else process.stdout.write(document);
  } finally {
    await app.close();
    await db.destroy();
  }
}

const program = new Command()
  .name('partner-api')
  .description(
    'Travel Insurance Partner API: server and operator commands. Configuration comes from the environment (see README).',
  )
  .showHelpAfterError();

program
  .command('serve', { isDefault: true })
  .description('Migrate the database and serve HTTP until SIGTERM.')
  .action(serve);
program
  .command('migrate')
  .description('Apply pending database migrations (or revert the latest with --down), then exit.')
  .option('--down', 'revert the latest applied migration')
  .action(migrate);
program
  .command('openapi')
  .description('Print the OpenAPI 3.1 document (or write it with --out).')
  .option('--out <file>', 'file to write')
  .action(writeOpenApi);
registerCatalogueCommands(program);

registerAuthCommands(program, { config: configOrExit });
registerIdempotencyCommands(program, configOrExit);
registerPurchasesCommands(program, configOrExit);
registerPolicyChangeCommands(program, configOrExit);
registerStatementsCommands(program, configOrExit);
registerScreeningCommands(program, configOrExit);
registerOperatorCommands(program, { config: configOrExit });
registerPolicyNotesCommands(program, configOrExit);
registerOutboxCommands(program.command('documents').description('Policy documents and their e-mails.'), configOrExit);

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  // Like a configuration error: the operator must act before a restart can help.
  process.exit(error instanceof SqliteFileUnusable ? 2 : 1);
});
