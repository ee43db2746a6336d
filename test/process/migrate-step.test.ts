import { execFile } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { pendingMigrations } from '../../src/db/migrate.js';
import { startChildServer, type ChildServer } from '../helpers/child-server.js';
import { createTestDatabase, DIALECT, type TestDatabase } from '../helpers/database.js';
import { scaled } from '../helpers/time-scale.js';

/** `src/cli.ts` with these settings: its exit code and standard error. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', ...args],
      { env: { ...process.env, LOG_LEVEL: 'silent', DEMO_DATA: 'false', PORT: '0', ...env } },
      (error, _stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

let database: TestDatabase | undefined;
let server: ChildServer | undefined;
afterEach(async () => {
  server?.kill();
  await server?.exited;
  server = undefined;
  await database?.destroy();
  database = undefined;
});

describe(`migrations as their own deployment step (${DIALECT})`, () => {
  it(
    'MIGRATE_ON_START=false: serve refuses a database that is behind (exit 2), and starts once `migrate` ran',
    async () => {
      database = await createTestDatabase();
      const env = { ...database.env, MIGRATE_ON_START: 'false' };
      const refused = await cli(['serve'], env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/migration\(s\) behind this code: run `migrate` first/);
      expect((await pendingMigrations(database.db)).length).toBeGreaterThan(0);

      expect((await cli(['migrate'], env)).code).toBe(0);
      expect(await pendingMigrations(database.db)).toEqual([]);
      server = await startChildServer(env);
      expect((await fetch(`${server.url}/ready`)).status).toBe(200);
    },
    scaled(90_000),
  );
});
