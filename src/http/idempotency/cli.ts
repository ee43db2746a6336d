import type { Command } from 'commander';
import { loadConfig, type AppConfig } from '../../config/config.js';
import { connectDatabase } from '../../db/connect.js';
import { IdempotencyService } from './service.js';

/** Operator commands of Idempotency-Key records. */
export function registerIdempotencyCommands(program: Command, config: () => AppConfig = loadConfig): void {
  program
    .command('purge-idempotency-keys')
    .description(
      'Delete Idempotency-Key records older than IDEMPOTENCY_RETENTION_HOURS (expired keys are reusable anyway; this bounds the table). Safe to run from cron.',
    )
    .action(async () => {
      const settings = config();
      const db = connectDatabase(settings.database);
      try {
        const service = new IdempotencyService({
          db,
          clock: () => new Date(),
          retentionHours: settings.idempotencyRetentionHours,
        });
        const deleted = await service.purgeExpired();
        process.stdout.write(`Deleted ${String(deleted)} expired idempotency key(s).\n`);
      } finally {
        await db.destroy();
      }
    });
}
