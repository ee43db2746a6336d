import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BRAND_CODES } from '../../src/kernel/brands.js';
import { migrations } from '../../src/db/migrations/index.js';
import { createTestDatabase, DIALECT } from '../helpers/database.js';

const run = promisify(execFile);

/** `cli.ts migrate` as its own process; resolves with its standard output. */
async function migrateInChildProcess(env: Record<string, string>): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'migrate'], {
    env: { ...process.env, ...env },
  });
  return stdout;
}

describe(`migrations (${DIALECT})`, () => {
  it('run once when several processes migrate at the same moment', async () => {
    const database = await createTestDatabase();
    try {
      const outputs = await Promise.all([1, 2, 3].map(() => migrateInChildProcess(database.env)));
      const applied = outputs.flatMap((out) => /^Applied: (.*)$/m.exec(out)?.[1]?.split(', ') ?? []);
      expect(applied).toEqual(Object.keys(migrations));
      const { rows } = await sql<{ n: number }>`select count(*) as n from brand`.execute(database.db);
      expect(Number(rows[0]?.n)).toBe(BRAND_CODES.length);
    } finally {
      await database.destroy();
    }
  });
});
