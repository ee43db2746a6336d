import type { Command } from 'commander';
import { loadConfig, type AppConfig } from '../config/config.js';
import { connectDatabase } from '../db/connect.js';
import type { Db } from '../db/database.js';
import { DomainError } from '../kernel/errors.js';
import type { NoteReason } from './model.js';
import { addReason, listReasons, retireReason } from './reasons.js';

const line = (r: NoteReason) =>
  [r.id, r.displayOrder, r.isActive ? 'active' : 'inactive', r.isDefault ? 'default' : '', r.text].join('\t');

/** Runs `work` on the configured database; a domain refusal is exit code 1 with its message. */
async function withDb(config: () => AppConfig, work: (db: Db) => Promise<void>): Promise<void> {
  const db = connectDatabase(config().database);
  try {
    await work(db);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  } finally {
    await db.destroy();
  }
}

/** Operator commands of policy notes: the list of reasons a note is written for. */
export function registerPolicyNotesCommands(program: Command, config: () => AppConfig = loadConfig): void {
  const reasons = program
    .command('notes')
    .description('Policy notes.')
    .command('reasons')
    .description('The reasons operators choose from when they write a note.');
  reasons
    .command('list')
    .description('Every reason (id, order, active, default, text), in the order forms list them.')
    .action(() =>
      withDb(config, async (db) => {
        for (const r of await listReasons(db, { all: true })) process.stdout.write(`${line(r)}\n`);
      }),
    );
  reasons
    .command('add <text>')
    .description('Adds an active reason.')
    .option('--order <n>', 'its place in the list (default: last)', (v) => Number.parseInt(v, 10))
    .option('--default', 'the reason forms preselect from now on')
    .action((text: string, options: { order?: number; default?: boolean }) =>
      withDb(config, async (db) => {
        const added = await addReason(
          db,
          {
            text,
            ...(options.order === undefined ? {} : { displayOrder: options.order }),
            isDefault: options.default === true,
          },
          new Date().toISOString(),
        );
        process.stdout.write(`${line(added)}\n`);
      }),
    );
  reasons
    .command('deactivate <id>')
    .description('Stops offering a reason (notes written with it keep it).')
    .action((id: string) =>
      withDb(config, async (db) => {
        const retired = await retireReason(db, Number.parseInt(id, 10), new Date().toISOString());
        process.stdout.write(`${line(retired)}\n`);
      }),
    );
}
