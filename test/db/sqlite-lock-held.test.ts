import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { pause } from '../helpers/polling.js';
import { holdSqliteWriteLock, type SqliteLockHolder } from '../helpers/sqlite-lock-holder.js';
import { scaled } from '../helpers/time-scale.js';
import { baliTrip, fixturePorts, NOW } from '../quotes/fixtures.js';
import { asPartner } from '../quotes/partners.js';

/** DB_BUSY_TIMEOUT_MS of this app: how long a write waits for the lock before 503. */
const WRITE_WAIT_MS = scaled(2000);
/** A read, /health and /ready while the lock is held: well under the write's wait. */
const PROMPT_MS = scaled(300);

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await work();
  return { result, ms: Date.now() - started };
}

// SQLite only: PostgreSQL has row locks and no file lock; its waits are tested in database-faults.test.ts.
describe.skipIf(DIALECT !== 'sqlite')('SQLite write lock held by another process (sqlite)', () => {
  const getApp = useTestApp({
    clock: () => NOW,
    env: { DB_BUSY_TIMEOUT_MS: String(WRITE_WAIT_MS) },
    appOptions: { quotePorts: fixturePorts() },
  });

  async function lockHolder(): Promise<SqliteLockHolder> {
    const { database } = getApp().database;
    if (database.kind !== 'sqlite') throw new Error('sqlite only');
    return holdSqliteWriteLock(database.path);
  }

  async function api() {
    const t = getApp();
    const headers = await asPartner(t, 'brandau');
    return {
      createQuote: () =>
        t.app.inject({ method: 'POST', url: '/quotes/v2/brandau/quote', headers, payload: { input: baliTrip() } }),
      readQuote: (id: string) => t.app.inject({ method: 'GET', url: `/quotes/v2/brandau/quote/${id}`, headers }),
      get: (url: string) => t.app.inject({ method: 'GET', url }),
    };
  }

  it(
    'reads, /health and /ready answer at once while a write waits off the event loop, then 503 with Retry-After at the bound; all works after',
    async () => {
      const { createQuote, readQuote, get } = await api();
      const stored = await createQuote();
      expect(stored.statusCode).toBe(200);
      const id = stored.json<{ id: string }>().id;

      const holder = await lockHolder();
      let write: ReturnType<typeof timed<Awaited<ReturnType<typeof createQuote>>>> | undefined;
      let writeAnswered = false;
      try {
        write = timed(createQuote);
        void write.then(() => (writeAnswered = true));
        // The event loop keeps turning while the write waits for the lock: a timer fires on time.
        const waited = await timed(() => pause(scaled(50)));
        expect(waited.ms).toBeLessThan(PROMPT_MS);
        expect(writeAnswered).toBe(false);

        const [read, health, ready] = await Promise.all([
          timed(() => readQuote(id)),
          timed(() => get('/health')),
          timed(() => get('/ready')),
        ]);
        expect(read.result.statusCode).toBe(200);
        expect(read.result.json()).toMatchObject({ id });
        expect(health.result.statusCode).toBe(200);
        // Reads are served, so the process is ready: only writes wait for the lock.
        expect(ready.result.statusCode).toBe(200);
        // The delivery lag is a read too: answered beside the rest.
        expect(ready.result.json()).toMatchObject({ status: 'ready', database: 'sqlite', deliveryLagSeconds: {} });
        for (const answer of [read, health, ready]) expect(answer.ms).toBeLessThan(PROMPT_MS);
        expect(writeAnswered).toBe(false);

        const refused = await write;
        expect(refused.result.statusCode).toBe(503);
        expect(refused.result.headers['retry-after']).toBe('2');
        expect(refused.result.json()).toEqual({
          validation: { isValid: false, errors: [{ code: 'DATABASE_UNAVAILABLE', message: expect.any(String) }] },
        });
        // It waited for the lock up to the bound, and no longer than the bound and a margin.
        expect(refused.ms).toBeGreaterThanOrEqual(WRITE_WAIT_MS - 50);
        expect(refused.ms).toBeLessThan(WRITE_WAIT_MS + PROMPT_MS);
      } finally {
        await write?.catch(() => undefined);
        await holder.release();
      }

      const again = await createQuote();
      expect(again.statusCode).toBe(200);
      const newId = again.json<{ id: string }>().id;
      expect((await readQuote(newId)).statusCode).toBe(200);
      expect((await get('/ready')).statusCode).toBe(200);
    },
    scaled(30_000),
  );

  it('a write whose lock is released while it waits answers 200, having let the loop run meanwhile', async () => {
    const { createQuote, readQuote } = await api();
    const holder = await lockHolder();
    let released = false;
    const write = timed(createQuote);
    try {
      await pause(scaled(100));
      await holder.release();
      released = true;
    } finally {
      if (!released) await holder.release();
    }
    const { result, ms } = await write;
    expect(result.statusCode).toBe(200);
    expect(ms).toBeLessThan(WRITE_WAIT_MS);
    expect((await readQuote(result.json<{ id: string }>().id)).statusCode).toBe(200);
  });
});
