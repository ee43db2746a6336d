import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { rawExchange, sleep } from '../helpers/raw-http.js';
import { scaled } from '../helpers/time-scale.js';

const TOKEN_PATH = '/users/brandau/token';
const FORM = 'application/x-www-form-urlencoded';

/** The real app on a real socket with short timeouts, and a test-only JSON route. */
async function serve(): Promise<{ t: TestApp; port: number }> {
  const t = await buildTestApp({
    env: { HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '600', TOKEN_BODY_LIMIT_BYTES: '1024' },
    beforeReady(app) {
      app.post('/echo', (req) => ({ received: req.body }));
    },
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return { t, port: (t.app.server.address() as AddressInfo).port };
}

/** By when the server has cut a slow request off: its timeout, Node's check interval, the linger. */
const CUT_OFF_MS = scaled(3_000);

const head = (path: string, type: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: api.test\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;

describe(`slow and oversized requests (${DIALECT})`, () => {
  it('a token request whose body never comes is answered 408 in OAuth’s body and closed', async () => {
    const { t, port } = await serve();
    try {
      const answer = await rawExchange(port, (s) => void s.write(head(TOKEN_PATH, FORM, 100)));
      expect(answer.status).toBe(408);
      expect(answer.headers.connection).toBe('close');
      expect(answer.headers['x-request-id']).toBeTruthy();
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'invalid_request' });
      expect(answer.ended).toBe('end');
      // REQUEST_TIMEOUT_MS plus Node's check interval and the linger before the close.
      expect(answer.elapsedMs).toBeLessThan(CUT_OFF_MS);
    } finally {
      await t.close();
    }
  });

  it('a JSON request whose body stops half-way is answered 408 in the contract’s body', async () => {
    const { t, port } = await serve();
    try {
      const answer = await rawExchange(port, (s) => void s.write(`${head('/echo', 'application/json', 50)}{"a":`));
      expect(answer.status).toBe(408);
      expect(answer.headers.connection).toBe('close');
      expect(JSON.parse(answer.body)).toEqual({
        validation: { isValid: false, errors: [expect.objectContaining({ code: 'REQUEST_TIMEOUT' })] },
      });
    } finally {
      await t.close();
    }
  });

  it('headers sent a line at a time are cut at HEADERS_TIMEOUT_MS', async () => {
    const { t, port } = await serve();
    try {
      // A line every 100 ms for twice the cut-off: a timer that each line restarted would never fire in time.
      const answer = await rawExchange(
        port,
        async (s) => {
          s.write('GET /health HTTP/1.1\r\nHost: api.test\r\n');
          const open = () => !s.destroyed;
          for (let i = 0; i < (2 * CUT_OFF_MS) / 100 && open(); i++) {
            await sleep(100);
            if (open()) s.write(`X-Slow-${i}: yes\r\n`);
          }
        },
        3 * CUT_OFF_MS,
      );
      expect(answer.status).toBe(408);
      expect(answer.ended).not.toBe('open');
      expect(answer.elapsedMs).toBeLessThan(CUT_OFF_MS);
    } finally {
      await t.close();
    }
  });

  it('a token body over TOKEN_BODY_LIMIT_BYTES is refused with 413 in OAuth’s body', async () => {
    const { t, port } = await serve();
    try {
      const body = `grant_type=password&username=${'u'.repeat(2000)}&password=x&client_id=API`;
      const answer = await rawExchange(port, (s) => void s.write(head(TOKEN_PATH, FORM, body.length) + body));
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'invalid_request' });
      // The same body is well within the JSON limit elsewhere: the token limit is its own.
      const json = JSON.stringify({ pad: 'x'.repeat(2000) });
      const echoed = await rawExchange(
        port,
        (s) => void s.write(head('/echo', 'application/json', json.length) + json),
        scaled(1000),
      );
      expect(echoed.status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('an idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const t = await buildTestApp({ env: { KEEP_ALIVE_TIMEOUT_MS: '300' } });
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (t.app.server.address() as AddressInfo).port;
      const answer = await rawExchange(port, (s) => void s.write('GET /health HTTP/1.1\r\nHost: api.test\r\n\r\n'));
      expect(answer.status).toBe(200);
      expect(answer.ended).toBe('end');
      expect(answer.elapsedMs).toBeLessThan(scaled(2_000));
    } finally {
      await t.close();
    }
  });
});
