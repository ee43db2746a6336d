import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BRAND_CODES } from '../../src/brands.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { migrateDown, migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { createTestDatabase, DIALECT, POSTGRES_URL } from '../helpers/database.js';

const run = promisify(execFile);

/** `cli.ts migrate` as its own process; resolves with its standard output. */
async function migrateInChildProcess(env: Record<string, string>): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'migrate'], { env: { ...process.env, ...env } });
  return stdout;
}

describe(`migrations (${DIALECT})`, () => {
  it('apply in order, are idempotent, and revert', async () => {
    const database = await createTestDatabase();
    try {
      const names = Object.keys(migrations);
      expect([...names].sort()).toEqual(names);
      expect(await migrateToLatest(database.db)).toEqual(names);
      expect(await migrateToLatest(database.db)).toEqual([]);
      const brands = await database.db.selectFrom('brand').select('code').orderBy('id').execute();
      expect(brands.map((b) => b.code)).toEqual([...BRAND_CODES]);
      const last = names.at(-1);
      expect(await migrateDown(database.db)).toEqual([last]);
      expect(await migrateToLatest(database.db)).toEqual([last]);
    } finally {
      await database.destroy();
    }
  });

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

describe.skipIf(!POSTGRES_URL)('PostgreSQL-only checks', () => {
  it('reads 64-bit integers as numbers', async () => {
    const database = await createTestDatabase();
    try {
      const { rows } = await sql<{ big: number }>`select 9007199254740991::bigint as big`.execute(database.db);
      expect(rows[0]?.big).toBe(Number.MAX_SAFE_INTEGER);
    } finally {
      await database.destroy();
    }
  });
});
if (!POSTGRES_URL) console.info('PostgreSQL-only checks skipped: DATABASE_URL is not set.');
