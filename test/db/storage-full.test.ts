import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { StorageHealth } from '../../src/db/storage-health.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { until } from '../helpers/polling.js';
import { scaled } from '../helpers/time-scale.js';
import { baliTrip, fixturePorts, NOW } from '../quotes/fixtures.js';
import { asPartner } from '../quotes/partners.js';

// A full disk, made deterministic: SQLite refuses to grow a database past its max_page_count
// with the very error a full disk gives (SQLITE_FULL). PostgreSQL's disk full (53100) is the class
// 53 already answered 503 (database-faults.test.ts).
describe.skipIf(DIALECT !== 'sqlite')('the SQLite disk full (sqlite)', () => {
  const getApp = useTestApp({ clock: () => NOW, appOptions: { quotePorts: fixturePorts() } });

  it('answers writes 503 with Retry-After, fails readiness, keeps reads, and heals without a restart', async () => {
    const t = getApp();
    const headers = await asPartner(t, 'brandau');
    const create = () =>
      t.app.inject({ method: 'POST', url: '/quotes/v2/brandau/quote', headers, payload: { input: baliTrip() } });
    const stored = await create();
    expect(stored.statusCode).toBe(200);
    const id = stored.json<{ id: string }>().id;

    const pages = await sql<{ page_count: number }>`pragma page_count`.execute(t.context.db);
    const full = pages.rows[0]!.page_count;
    await sql.raw(`pragma max_page_count = ${full}`).execute(t.context.db);
    try {
      // Enough writes to need a new page.
      let refused = await create();
      for (let i = 0; i < 200 && refused.statusCode === 200; i++) refused = await create();
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('2');
      expect(refused.json()).toMatchObject({ validation: { errors: [{ code: 'DATABASE_UNAVAILABLE' }] } });
      expect(JSON.stringify(refused.json())).not.toMatch(/SQLITE|full/i);

      const ready = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', database: 'sqlite' });
      expect((await t.app.inject({ method: 'GET', url: `/quotes/v2/brandau/quote/${id}`, headers })).statusCode).toBe(
        200,
      );
    } finally {
      // Space is back.
      await sql.raw('pragma max_page_count = 1073741823').execute(t.context.db);
    }
    expect((await create()).statusCode).toBe(200);
    await until(
      async () => (await t.app.inject({ method: 'GET', url: '/ready' })).statusCode === 200,
      'readiness back',
      scaled(StorageHealth.HOLD_MS + 5000),
    );
  });
});

describe('storage health', () => {
  it('fails readiness for HOLD_MS after a refusal, and only for storage refusals', () => {
    let now = 1_000_000;
    const health = new StorageHealth(() => now);
    health.noteFailure(Object.assign(new Error('connection lost'), { code: 'ECONNRESET' }));
    expect(health.refusingWrites).toBe(false);
    health.noteFailure(new Error('wrapped', { cause: Object.assign(new Error('full'), { code: 'SQLITE_FULL' }) }));
    expect(health.refusingWrites).toBe(true);
    now += StorageHealth.HOLD_MS - 1;
    expect(health.refusingWrites).toBe(true);
    now += 1;
    expect(health.refusingWrites).toBe(false);
    health.noteFailure(Object.assign(new Error('disk full'), { code: '53100' }));
    expect(health.refusingWrites).toBe(true);
  });
});

describe.skipIf(DIALECT !== 'sqlite')('a data folder the server cannot write (sqlite)', () => {
  for (const path of ['/sys/partner-api/data.sqlite', '/dev/null/data.sqlite']) {
    it(`exits 2 naming ${path} and what to do`, async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
        env: { ...process.env, DATABASE_URL: '', SQLITE_PATH: path, PORT: '0', LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(2);
      expect(stderr).toContain(`Cannot open the SQLite database at ${path} for writing`);
      expect(stderr).toContain('SQLITE_PATH');
      expect(stderr).not.toMatch(/^\s+at /m);
    });
  }
});
