import { createHash } from 'node:crypto';
import cookie from '@fastify/cookie';
import session from '@fastify/session';
import type { Session } from 'fastify';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { OperatorSessionStore } from '../../src/operators/session-store.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';

const database = useMigratedTestDatabase();
const NOW = Date.parse('2026-12-05T10:00:00.000Z');
const HOUR = 3_600_000;

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/** The store's callbacks as promises. */
function on(store: OperatorSessionStore) {
  return {
    set: (id: string, value: object) =>
      new Promise<void>((resolve, reject) =>
        store.set(id, value as Session, (error) => (error ? reject(asError(error)) : resolve())),
      ),
    get: (id: string) =>
      new Promise<Session | null | undefined>((resolve, reject) =>
        store.get(id, (error, result) => (error ? reject(asError(error)) : resolve(result))),
      ),
    destroy: (id: string) =>
      new Promise<void>((resolve, reject) =>
        store.destroy(id, (error) => (error ? reject(asError(error)) : resolve())),
      ),
  };
}

const sessionOf = (operatorId: number | undefined, expiresAt: number) => ({
  cookie: {
    originalMaxAge: expiresAt - NOW,
    expires: new Date(expiresAt).toISOString(),
    httpOnly: true,
    path: '/console',
  },
  ...(operatorId === undefined ? {} : { operatorId, signedInAt: new Date(NOW).toISOString() }),
  _csrf: 'csrf-secret',
});

describe('the console session store', () => {
  it('keeps a session under the SHA-256 of its id only, reads it back, replaces and destroys it', async () => {
    let now = NOW;
    const store = on(new OperatorSessionStore(database.db, () => new Date(now)));
    const id = 'session-id-one-abcdefghijklmnopqrstuvwxyz';
    await store.set(id, sessionOf(7, NOW + 10 * HOUR));
    const rows = await database.db.selectFrom('operator_session').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sid_hash).toBe(createHash('sha256').update(id).digest('hex'));
    expect(JSON.stringify(rows[0])).not.toContain(id);
    expect(Number(rows[0]!.operator_id)).toBe(7);
    expect(rows[0]!.expires_at).toBe(new Date(NOW + 10 * HOUR).toISOString());
    expect(await store.get(id)).toMatchObject({ operatorId: 7, _csrf: 'csrf-secret' });
    expect(await store.get('another-id')).toBeNull();

    now = NOW + HOUR;
    await store.set(id, { ...sessionOf(7, NOW + 10 * HOUR), lastSeenAt: new Date(now).toISOString() });
    const replaced = await database.db.selectFrom('operator_session').selectAll().execute();
    expect(replaced).toHaveLength(1);
    expect(replaced[0]!.created_at).toBe(new Date(NOW).toISOString());
    expect(await store.get(id)).toMatchObject({ lastSeenAt: new Date(now).toISOString() });

    await store.destroy(id);
    expect(await store.get(id)).toBeNull();
    await store.destroy(id); // destroying a missing session is no error
  });

  it('never returns an expired session, and the purge deletes only expired ones', async () => {
    let now = NOW;
    const raw = new OperatorSessionStore(database.db, () => new Date(now));
    const store = on(raw);
    await store.set('expiring-soon', sessionOf(8, NOW + HOUR));
    await store.set('expiring-late', sessionOf(8, NOW + 5 * HOUR));
    await store.set('anonymous', sessionOf(undefined, NOW + HOUR));
    expect(await store.get('expiring-soon')).not.toBeNull();
    now = NOW + HOUR;
    expect(await store.get('expiring-soon')).toBeNull();
    expect(await store.get('anonymous')).toBeNull();
    expect(await store.get('expiring-late')).not.toBeNull();
    expect(await raw.purgeExpired()).toBe(2);
    expect(await raw.purgeExpired()).toBe(0);
    expect(await store.get('expiring-late')).not.toBeNull();
    await store.destroy('expiring-late');
  });

  it("destroySessionsOf ends every session of one operator and no one else's", async () => {
    const raw = new OperatorSessionStore(database.db, () => new Date(NOW));
    const store = on(raw);
    await store.set('nine-a', sessionOf(9, NOW + HOUR));
    await store.set('nine-b', sessionOf(9, NOW + HOUR));
    await store.set('ten-a', sessionOf(10, NOW + HOUR));
    await store.set('nobody', sessionOf(undefined, NOW + HOUR));
    expect(await raw.destroySessionsOf(9)).toBe(2);
    expect(await store.get('nine-a')).toBeNull();
    expect(await store.get('nine-b')).toBeNull();
    expect(await store.get('ten-a')).not.toBeNull();
    expect(await store.get('nobody')).not.toBeNull();
  });

  it('serves @fastify/session: a value set on one request is there on the next, gone after destroy', async () => {
    const app = Fastify({ logger: false });
    try {
      await app.register(cookie);
      await app.register(session, {
        secret: 'a-session-secret-of-at-least-32-characters',
        cookie: { secure: false, maxAge: HOUR },
        store: new OperatorSessionStore(database.db, () => new Date()),
        saveUninitialized: false,
      });
      app.post('/set', (request) => {
        (request.session as unknown as { operatorId: number }).operatorId = 42;
        return { ok: true };
      });
      app.get('/read', (request) => ({
        operatorId: (request.session as unknown as { operatorId?: number }).operatorId ?? null,
      }));
      app.post('/end', async (request) => {
        await request.session.destroy();
        return { ok: true };
      });
      const set = await app.inject({ method: 'POST', url: '/set' });
      const cookieHeader = String(set.headers['set-cookie']).split(';')[0]!;
      const read = await app.inject({ method: 'GET', url: '/read', headers: { cookie: cookieHeader } });
      expect(read.json()).toEqual({ operatorId: 42 });
      const row = await database.db
        .selectFrom('operator_session')
        .select('operator_id')
        .where('operator_id', '=', 42)
        .executeTakeFirst();
      expect(row).toBeDefined();
      await app.inject({ method: 'POST', url: '/end', headers: { cookie: cookieHeader } });
      const after = await app.inject({ method: 'GET', url: '/read', headers: { cookie: cookieHeader } });
      expect(after.json()).toEqual({ operatorId: null });
    } finally {
      await app.close();
    }
  });
});
