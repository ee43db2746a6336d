import type { Command } from 'commander';
import { loadConfig, type AppConfig } from '../../config/config.js';
import { connectDatabase } from '../connect.js';
import { failureName } from '../refused-values.js';
import { failedMessages, retryMessage } from './repository.js';

/**
 * Operator commands of the outbox under `documents` (the e-mails of issue 20 are its messages):
 * list the FAILED ones, and make one due again. `documents` may be shared with other areas' commands.
 */
export function registerOutboxCommands(documents: Command, config: () => AppConfig = loadConfig): void {
  documents
    .command('failed')
    .description(
      'List outbox messages (e-mails) that failed after their last attempt: key, kind, attempts, last error, created.',
    )
    .option('--limit <n>', 'at most this many, oldest first', '100')
    .action(async (options: { limit: string }) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new Error('--limit must be a whole number ≥ 1');
      await withDatabase(config, 'documents failed', async (db) => {
        const messages = await failedMessages(db, limit);
        const lines = messages.map((m) =>
          [m.key, m.kind, String(m.attempts), m.lastError ?? '', m.createdAt].join('\t'),
        );
        process.stdout.write(['key\tkind\tattempts\tlast error\tcreated', ...lines].join('\n') + '\n');
      });
    });
  documents
    .command('retry <key>')
    .description(
      'Deliver an outbox message (e-mail) not yet sent again now, with every attempt again (exit 1: no such unsent key).',
    )
    .action(async (key: string) => {
      await withDatabase(config, 'documents retry', async (db) => {
        if (await retryMessage(db, key, new Date().toISOString())) process.stdout.write(`Pending again: ${key}\n`);
        else {
          process.stderr.write(`No unsent outbox message with this key: ${key}\n`);
          process.exitCode = 1;
        }
      });
    });
}

async function withDatabase(
  config: () => AppConfig,
  name: string,
  work: (db: ReturnType<typeof connectDatabase>) => Promise<void>,
): Promise<void> {
  const db = connectDatabase(config().database);
  try {
    await work(db);
  } catch (error) {
    // Exit 2: the command could not run (no database); nothing was changed.
    process.stderr.write(`${name} could not run: ${failureName(error)}\n`);
    process.exitCode = 2;
  } finally {
    await db.destroy();
  }
}
