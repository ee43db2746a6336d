import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { IDLE_GRACE_MS, QUIET_MS } from '../../src/http/server/listener.js';
import { startServer } from '../../src/server.js';
import { buildTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { createMigratedTestDatabase } from '../helpers/migrated-database.js';
import { startChildServer } from '../helpers/child-server.js';
import { until } from '../helpers/polling.js';
import { parseAnswer, rawExchange, sleep } from '../helpers/raw-http.js';
import { scaled } from '../helpers/time-scale.js';

interface Outcome {
  status?: number;
  error?: string;
}

function get(url: string, agentless = true): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(url, { agent: agentless ? false : undefined }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

type Server = Awaited<ReturnType<typeof startServer>>;

/** A server on a fresh migrated database whose drain lasts `drainMs`, closed (with its database) after `run`. */
async function onServer(drainMs: number, run: (server: Server, port: number) => Promise<void>): Promise<void> {
  const database = await createMigratedTestDatabase();
  const config = {
    ...loadConfig({ PORT: '0', SHUTDOWN_DRAIN_MS: String(drainMs), DEMO_DATA: 'false' }),
    database: database.database,
  };
  const server = await startServer(config, { db: database.db, logger: false });
  try {
    await run(server, Number(new URL(server.url).port));
  } finally {
    await server.close();
    await database.destroy();
  }
}

describe(`graceful shutdown (${DIALECT})`, () => {
  it('finishes every in-flight request before closing', async () => {
    let arrived = 0;
    const t = await buildTestApp({
      beforeReady(app) {
        // Test-only slow route: keeps requests in flight while the server closes.
        app.get('/slow', async () => {
          arrived += 1;
          await new Promise((r) => setTimeout(r, 300));
          return { done: true };
        });
      },
    });
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const address = t.app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const burst = Array.from({ length: 40 }, () => get(`http://127.0.0.1:${port}/slow`));
      while (arrived < 40) await new Promise((r) => setTimeout(r, 5));
      const closing = t.app.close();
      const outcomes = await Promise.all(burst);
      await closing;
      expect(outcomes).toEqual(Array.from({ length: 40 }, () => ({ status: 200 })));
      expect(await get(`http://127.0.0.1:${port}/health`)).toMatchObject({ error: 'ECONNREFUSED' });
    } finally {
      await t.app.close();
      await t.database.destroy();
    }
  });

  it('exits 0 on SIGTERM during a burst, after completing every request', async () => {
    const database = await createMigratedTestDatabase();
    const server = await startChildServer({ ...database.env, SHUTDOWN_DRAIN_MS: String(scaled(2000)) });
    try {
      let answered = 0;
      const burst = Array.from({ length: 200 }, async () => {
        const outcome = await get(`${server.url}/health`);
        answered += 1;
        return outcome;
      });
      while (answered < 50) await new Promise((r) => setTimeout(r, 2));
      server.process.kill('SIGTERM');
      const outcomes = await Promise.all(burst);
      expect(await server.exited).toBe(0);
      // Every request of the burst gets an HTTP answer: none is reset or refused. On a loaded
      // machine a request may still arrive after the drain, when the closing server answers
      // 503 (retry elsewhere) rather than cutting it off.
      expect(outcomes.filter((o) => o.status !== 200 && o.status !== 503)).toEqual([]);
      expect(outcomes.filter((o) => o.status === 200).length).toBeGreaterThanOrEqual(50);
      // Its last lines may still be in the pipe when the exit is reported.
      await until(() => server.logs.some((l) => l.msg === 'stopped'), "the server's `stopped`", scaled(10_000));
      expect(server.logs.some((l) => l.msg === 'stopped')).toBe(true);
    } finally {
      server.kill();
      await database.destroy();
    }
  });

  it('fails readiness and asks clients to reconnect while draining', async () => {
    // A drain long enough, on this machine's scale, for the two requests below to come inside it.
    await onServer(scaled(1000), async (server) => {
      const closing = server.close();
      const ready = await server.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'draining', database: DIALECT });
      expect(ready.headers.connection).toBe('close');
      expect((await get(`${server.url}/health`)).status).toBe(200);
      await closing;
    });
  });

  it('stops gracefully when `npm start` itself gets SIGTERM (the signal reaches the server)', async () => {
    const database = await createMigratedTestDatabase();
    const server = await startChildServer({ ...database.env, SHUTDOWN_DRAIN_MS: '0' }, ['npm', 'start', '--silent']);
    try {
      expect((await get(`${server.url}/health`)).status).toBe(200);
      server.process.kill('SIGTERM');
      await server.exited;
      // npm is gone; the server must be gone too, not orphaned and still listening. It may log
      // `stopped` after npm has exited: a busy machine gives it its turn when it does.
      await until(() => server.logs.some((l) => l.msg === 'stopped'), "the server's `stopped`", scaled(10_000));
      expect(server.logs.some((l) => l.msg === 'stopped')).toBe(true);
      expect(await get(`${server.url}/health`)).toMatchObject({ error: 'ECONNREFUSED' });
    } finally {
      server.kill();
      await database.destroy();
    }
  });
});

const codesOf = (body: string) =>
  (JSON.parse(body) as { validation: { errors: { code: string }[] } }).validation.errors.map((e) => e.code);

describe(`the end of the drain (${DIALECT})`, () => {
  it('answers requests on open connections with 503 SHUTTING_DOWN instead of resetting them', async () => {
    await onServer(200, async (server, port) => {
      const socket = connect(port, '127.0.0.1');
      try {
        let received = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (received += chunk));
        const ended = new Promise<string>((resolve) => {
          socket.on('close', () => resolve('close'));
          socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
        });
        const answerOn = async () => {
          const deadline = Date.now() + scaled(5_000);
          while (!parseAnswer(received) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
          const answer = parseAnswer(received);
          received = '';
          return answer;
        };
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write('GET /health HTTP/1.1\r\nHost: api.test\r\n\r\n');
        expect((await answerOn())?.status).toBe(200);

        const closing = server.close();
        while (!server.app.lifecycle.closing) await new Promise((r) => setTimeout(r, 2));
        // The listener has stopped accepting; this keep-alive connection is still open, and its
        // next request gets an answer in the contract's body rather than a reset.
        socket.write('GET /health HTTP/1.1\r\nHost: api.test\r\nX-Request-Id: trace-shutdown-1\r\n\r\n');
        const late = await answerOn();
        expect(late?.status).toBe(503);
        expect(late?.headers.connection).toBe('close');
        expect(late?.headers['x-request-id']).toBe('trace-shutdown-1');
        expect(JSON.parse(late?.body ?? '{}')).toEqual({
          validation: { isValid: false, errors: [expect.objectContaining({ code: 'SHUTTING_DOWN' })] },
        });
        expect(await ended).toBe('close');
        await closing;
      } finally {
        socket.destroy();
      }
    });
  });

  it('answers a connection accepted before the listener stopped whose request comes after', async () => {
    await onServer(100, async (server, port) => {
      // Connected (and accepted) while the process still serves, but silent until the listener
      // has stopped: Node's own close destroyed such connections at once, and clients saw resets.
      const answers = Array.from({ length: 5 }, (_, i) =>
        rawExchange(port, async (s) => {
          while (!server.app.lifecycle.closing) await sleep(2);
          await sleep(i * 30);
          s.write(`GET /health HTTP/1.1\r\nHost: api.test\r\n\r\n`);
        }),
      );
      await sleep(50);
      await server.close();
      for (const answer of await Promise.all(answers)) {
        expect(answer.status).toBe(503);
        expect(answer.ended).toBe('end');
        expect(codesOf(answer.body)).toEqual(['SHUTTING_DOWN']);
      }
    });
  });

  it('waits past the idle grace for the first request of a connection accepted before the listener stopped', async () => {
    await onServer(100, async (server, port) => {
      // A starved client: its connection was accepted, its request is written only after the
      // listener has stopped and an idle keep-alive connection would have been closed.
      const late = rawExchange(port, async (s) => {
        while (!server.app.lifecycle.closing) await sleep(2);
        await sleep(QUIET_MS + IDLE_GRACE_MS + 250);
        s.write(`GET /health HTTP/1.1\r\nHost: api.test\r\n\r\n`);
      });
      await sleep(50);
      await server.close();
      const answer = await late;
      expect(answer.status).toBe(503);
      expect(codesOf(answer.body)).toEqual(['SHUTTING_DOWN']);
    });
  });
});
