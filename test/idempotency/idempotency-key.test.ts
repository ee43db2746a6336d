import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { buildApp } from '../../src/app.js';
import { checkAnswers } from '../helpers/contract/taps.js';
import { connectDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { InvalidInput, NotFound } from '../../src/kernel/errors.js';
import { doNotKeepAnswer, heldIdempotencyKey, idempotentRoute } from '../../src/http/idempotency/hooks.js';
import { bindKey } from '../../src/http/idempotency/repository.js';
import { DatabaseUnavailable } from '../../src/db/faults.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { until } from '../helpers/polling.js';

const START = new Date('2026-11-22T10:00:00.000Z');
let now = START;
let runs = 0;
/** Requests with `note: "slow"` wait here until the test releases them. */
let gate: { promise: Promise<void>; open: () => void } = newGate();
function newGate() {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const OrderBody = Type.Object({ amount: Type.Integer({ minimum: 1 }), note: Type.Optional(Type.String()) });

/** A test-only route that opts in to Idempotency-Key, counting how often its handler really runs. */
function registerTestRoute(app: FastifyInstance): void {
  app.post(
    '/test/orders',
    {
      ...idempotentRoute({ scopeOf: (request) => String(request.headers['x-test-partner'] ?? 'anonymous') }),
      schema: {
        body: OrderBody,
        // A response schema, as contract routes have: a replayed body must not be serialised twice.
        response: {
          200: Type.Object({ run: Type.Integer(), result: Type.String() }),
          201: Type.Object({ run: Type.Integer(), amount: Type.Integer(), result: Type.String() }),
        },
      },
    },
    async (request, reply) => {
      const body = request.body as { amount: number; note?: string };
      runs += 1;
      const run = runs;
      const key = heldIdempotencyKey(request);
      // An earlier request with the key started a record: answer from it.
      if (key?.subject !== undefined) return reply.code(201).send({ run, amount: body.amount, result: key.subject });
      // Starts a record named on the key (as a purchase's first commit does), then the database goes away.
      if (body.note === 'started' && key) {
        await bindKey(t.context.db, { keyId: key.id, subject: `order:${run}` });
        throw new DatabaseUnavailable();
      }
      // Starts a record, then answers that the caller should retry afresh (a gateway outage).
      if (body.note === 'afresh' && key) {
        await bindKey(t.context.db, { keyId: key.id, subject: `order:${run}` });
        doNotKeepAnswer(request);
        return reply.code(200).send({ run, result: 'RETRY' });
      }
      if (body.note === 'slow') await gate.promise;
      if (body.note === 'invalid') throw new InvalidInput('TEST_INVALID', 'Refused by a rule about the request shape.');
      if (body.note === 'missing') throw new NotFound('TEST_NOT_FOUND', 'No such thing.');
      if (body.note === 'crash') throw new Error('boom');
      if (body.note === 'declined') return reply.code(200).send({ run, result: 'DECLINED' });
      return reply.code(201).send({ run, amount: body.amount, result: 'APPROVED' });
    },
  );
}

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ clock: () => now, beforeReady: registerTestRoute });
});
afterAll(async () => {
  await t.close();
});

let sequence = 0;
const freshKey = () => `order-${String((sequence += 1))}`;

function post(body: unknown, key?: string, partner = 'A', app = t.app) {
  return app.inject({
    method: 'POST',
    url: '/test/orders',
    headers: { 'x-test-partner': partner, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload: body as Record<string, unknown>,
  });
}

/** How many of `requests` have been answered so far (a waiting one is held at the gate). */
function answeredOf(requests: readonly Promise<unknown>[]): () => number {
  let answered = 0;
  for (const request of requests) void request.then(() => (answered += 1));
  return () => answered;
}

describe(`Idempotency-Key on a route (${DIALECT})`, () => {
  it('without a key, every request runs', async () => {
    const before = runs;
    await post({ amount: 1 });
    await post({ amount: 1 });
    expect(runs).toBe(before + 2);
  });

  it('same key and body: the stored status and body come back, the handler ran once', async () => {
    const key = freshKey();
    const first = await post({ amount: 5, note: 'x' }, key);
    const before = runs;
    const again = await post({ note: 'x', amount: 5 }, key);
    expect(runs).toBe(before);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
  });

  it('same key, different body: 422, and the first response still replays', async () => {
    const key = freshKey();
    const first = await post({ amount: 5 }, key);
    const other = await post({ amount: 6 }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({
      validation: { isValid: false, errors: [{ code: 'IDEMPOTENCY_KEY_REUSED', property: 'Idempotency-Key' }] },
    });
    expect((await post({ amount: 5 }, key)).body).toBe(first.body);
  });

  it.each([
    ['', 'empty'],
    ['k'.repeat(256), 'too long'],
    ['tab\tkey', 'control character'],
  ])('a malformed key (%#: %s) is a 400', async (key) => {
    const before = runs;
    const response = await post({ amount: 1 }, key);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      validation: { errors: [{ code: 'IDEMPOTENCY_KEY_INVALID', property: 'Idempotency-Key' }] },
    });
    expect(runs).toBe(before);
  });

  it('keys are scoped per partner', async () => {
    const key = freshKey();
    const a = await post({ amount: 7 }, key, 'A');
    const b = await post({ amount: 8 }, key, 'B');
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.json()).toMatchObject({ amount: 8 });
  });

  it('a body the schema refuses is not stored: the key stays free', async () => {
    const key = freshKey();
    expect((await post({ amount: 'five' }, key)).statusCode).toBe(400);
    const ok = await post({ amount: 5 }, key);
    expect(ok.statusCode).toBe(201);
  });

  it('a 400 from the handler and a 500 are not stored; the same request may be retried', async () => {
    for (const note of ['invalid', 'crash']) {
      const key = freshKey();
      const before = runs;
      const first = await post({ amount: 1, note }, key);
      const second = await post({ amount: 1, note }, key);
      expect([first.statusCode, second.statusCode]).toEqual(note === 'crash' ? [500, 500] : [400, 400]);
      expect(runs).toBe(before + 2);
    }
  });

  it("a key whose request started a record is the operation's: after a 503 its retry runs at once with the record in hand, another request gets 422", async () => {
    const key = freshKey();
    const failed = await post({ amount: 6, note: 'started' }, key);
    expect(failed.statusCode).toBe(503);
    const started = runs;
    expect((await post({ amount: 7 }, key)).statusCode).toBe(422);
    const retry = await post({ amount: 6, note: 'started' }, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toMatchObject({ result: `order:${started}` });
    const replay = await post({ amount: 6, note: 'started' }, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(retry.body);
  });

  it('a key whose request started nothing is free after a 500; one whose answer says to retry afresh is freed of its record', async () => {
    const crashed = freshKey();
    expect((await post({ amount: 1, note: 'crash' }, crashed)).statusCode).toBe(500);
    expect((await post({ amount: 2 }, crashed)).statusCode).toBe(201);
    const afresh = freshKey();
    expect((await post({ amount: 1, note: 'afresh' }, afresh)).json()).toMatchObject({ result: 'RETRY' });
    const again = await post({ amount: 1, note: 'afresh' }, afresh);
    expect(again.json()).toMatchObject({ result: 'RETRY' });
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect((await post({ amount: 3 }, afresh)).statusCode).toBe(201);
  });

  it('a decline and a 404 from the handler are stored and replayed', async () => {
    for (const [note, status] of [
      ['declined', 200],
      ['missing', 404],
    ] as const) {
      const key = freshKey();
      const first = await post({ amount: 1, note }, key);
      const before = runs;
      const again = await post({ amount: 1, note }, key);
      expect([first.statusCode, again.statusCode]).toEqual([status, status]);
      expect(again.body).toBe(first.body);
      expect(runs).toBe(before);
    }
  });

  it('two requests at once: one runs, the other gets 409 with Retry-After; afterwards the result replays', async () => {
    const key = freshKey();
    const before = runs;
    gate = newGate();
    const requests = [post({ amount: 9, note: 'slow' }, key), post({ amount: 9, note: 'slow' }, key)];
    const both = Promise.all(requests);
    const answered = answeredOf(requests);
    // Released once the other request has its answer, however long the machine takes to give it.
    await until(() => answered() === requests.length - 1, 'the answer to the request that is not running');
    gate.open();
    const statuses = (await both).map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409]);
    const conflict = (await both).find((r) => r.statusCode === 409)!;
    expect(conflict.headers['retry-after']).toBe('1');
    expect(conflict.json()).toMatchObject({ validation: { errors: [{ code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS' }] } });
    expect(runs).toBe(before + 1);
    expect((await post({ amount: 9, note: 'slow' }, key)).statusCode).toBe(201);
  });

  it('several app instances on their own connections: exactly one of many simultaneous requests runs', async () => {
    // PostgreSQL: separate pools, as separate processes have. SQLite: the same connection (a
    // second better-sqlite3 connection in one process would block the event loop on the lock).
    const extra: Db[] =
      DIALECT === 'postgres' ? [connectDatabase(t.database.database), connectDatabase(t.database.database)] : [];
    const apps = await Promise.all(
      (extra.length > 0 ? extra : [t.context.db]).map(async (db) => {
        const app = await buildApp({ ...t.context, db }, { logger: false });
        registerTestRoute(app);
        await app.ready();
        checkAnswers(app);
        return app;
      }),
    );
    try {
      const key = freshKey();
      const before = runs;
      gate = newGate();
      const requests = [t.app, ...apps, t.app, ...apps].map((app) => post({ amount: 3, note: 'slow' }, key, 'A', app));
      const all = Promise.all(requests);
      const answered = answeredOf(requests);
      await until(() => answered() === requests.length - 1, 'the answers to the requests that are not running');
      gate.open();
      const statuses = (await all).map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(statuses.length - 1);
      expect(runs).toBe(before + 1);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await Promise.all(extra.map((db) => db.destroy()));
    }
  });

  it('a claim abandoned by a dead process is taken over after the lock timeout', async () => {
    const key = freshKey();
    gate = newGate();
    // Simulate a process that claimed the key and died: its claim row stays in flight.
    const before = runs;
    const abandoned = post({ amount: 4, note: 'slow' }, key);
    await until(() => runs === before + 1, 'the claim of the request that will be abandoned');
    expect((await post({ amount: 4, note: 'slow' }, key)).statusCode).toBe(409);
    await t.context.db
      .updateTable('idempotency_key')
      .set({ lock_token: 'dead-process' })
      .where('idempotency_key', '=', key)
      .execute();
    now = new Date(START.getTime() + 121_000);
    try {
      gate.open();
      await abandoned; // its late response can no longer be recorded: the claim is not its own
      expect((await post({ amount: 4, note: 'slow' }, key)).statusCode).toBe(201);
      const replay = await post({ amount: 4, note: 'slow' }, key);
      expect(replay.headers['idempotent-replayed']).toBe('true');
    } finally {
      now = START;
    }
  });

  it('keys expire after the retention: the key is free again and the cleanup deletes old records', async () => {
    const key = freshKey();
    await post({ amount: 2 }, key);
    expect((await post({ amount: 3 }, key)).statusCode).toBe(422);
    const started = freshKey();
    expect((await post({ amount: 2, note: 'started' }, started)).statusCode).toBe(503);
    now = new Date(START.getTime() + 24 * 3_600_000);
    try {
      const reused = await post({ amount: 3 }, key);
      expect(reused.statusCode).toBe(201);
      expect(reused.headers['idempotent-replayed']).toBeUndefined();
      // An expired key names no record any more: the new request runs as new.
      expect((await post({ amount: 3 }, started)).json()).toMatchObject({ result: 'APPROVED' });
      now = new Date(START.getTime() + 48 * 3_600_000);
      const purged = await t.app.idempotency.purgeExpired();
      expect(purged).toBeGreaterThan(0);
      const left = await t.context.db.selectFrom('idempotency_key').select('id').execute();
      expect(left).toHaveLength(0);
    } finally {
      now = START;
    }
  });
});
