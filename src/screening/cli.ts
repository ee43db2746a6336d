import type { Command } from 'commander';
import { loadConfig, type AppConfig } from '../config/config.js';
import { connectDatabase } from '../db/connect.js';
import { failureName } from '../db/refused-values.js';
import { purgeDue } from './purge.js';
import { screeningPurgeDepsFor } from './purge-port.js';

/** Operator commands of medical screening. */
export function registerScreeningCommands(program: Command, config: () => AppConfig = loadConfig): void {
  const screening = program.command('screening').description('Medical screening operations.');
  screening
    .command('purge')
    .description(
      "Erase screenings' health data past its retention (SCREENING_RETENTION_DAYS after the cover ends; an unbought quote's screening SCREENING_UNSOLD_RETENTION_DAYS after its last change). Each server's sweep does the same a batch at a time; safe to run while servers run, and repeatedly.",
    )
    .action(async () => {
      const settings = config();
      const db = connectDatabase(settings.database);
      try {
        const deps = screeningPurgeDepsFor({ config: settings, db, clock: () => new Date() });
        const report = await purgeDue(deps, { batchSize: 500, maxBatches: 10_000 });
        process.stdout.write(`${JSON.stringify(report)}\n`);
      } catch (error) {
        // 2: the run could not happen (no database); what was purged before stays purged.
        process.stderr.write(`screening purge could not run: ${failureName(error)}\n`);
        process.exitCode = 2;
      } finally {
        await db.destroy();
      }
    });
}
