import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { loggerOptions } from '../../src/logging/options.js';
import { everyRowText } from '../helpers/every-row.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { bearerFor, ensureTestUser } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { CARDS, NOW, purchaseBody, readyQuote } from '../purchases/support.js';

/**
 * The card-number canary (PCI DSS 3.3–3.5; checklist F 27, K 46): a test PAN sent everywhere a
 * partner can put text outside a JSON body (path, query, headers, keys, username) and in quote
 * fields; afterwards it is in no log line, no table and no answer, in any of its spellings.
 */
const CANARY = '4000056655665556';
const SPACED = '4000 0566 5566 5556';
const ANY_SPELLING = /4000(?:[ -]|%20|\+)?0566(?:[ -]|%20|\+)?5566(?:[ -]|%20|\+)?5556/;

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

const logLines: string[] = [];
const answers: Answer[] = [];
let t: TestApp;
let origin: string;

beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const env = { DEMO_DATA: 'true', LOG_LEVEL: 'trace' };
  t = await buildTestApp({
    env,
    clock: () => NOW,
    appOptions: { logger: { ...loggerOptions(loadConfig(env)), stream } },
    beforeReady: (app) => {
      // A library error that builds its message from a value: the logged error must not keep it.
      app.get('/test/failing', () => {
        throw new Error(`lookup of ${CANARY} failed (${SPACED})`);
      });
    },
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => t.close());

/** Over a real connection, so the front cache (which `inject` never meets) answers too. */
function overHttp(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const answer = { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() };
        answers.push(answer);
        resolve(answer);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function injected(options: InjectOptions): Promise<Answer> {
  const res = await t.app.inject(options);
  const answer = { status: res.statusCode, headers: res.headers, body: res.body };
  answers.push(answer);
  return answer;
}

const codeOf = (answer: Answer) =>
  (JSON.parse(answer.body) as { validation: { errors: { code: string }[] } }).validation.errors[0]?.code;

const everyRow = () =>
  everyRowText(t.context.db, ['quote', 'purchase', 'policy_header', 'idempotency_key', 'login_failure']);

describe(`a card number sent anywhere is kept nowhere (${DIALECT})`, () => {
  it('is in no answer, no log line and no table', async () => {
    const headers = await bearerFor(t, 'brandau');
    const userAgent = `CanaryBrowser/1.0 (card ${SPACED})`;

    // Path: a policy number, an unknown route, a brand, percent-encoded.
    const policy = await injected({ method: 'GET', url: `/policies/v1/brandau/policies/${CANARY}`, headers });
    expect(policy.status).toBe(404);
    expect(JSON.parse(policy.body)).toMatchObject({ validation: { errors: [{ code: 'POLICY_NOT_FOUND' }] } });
    expect((await injected({ method: 'GET', url: `/nowhere/${CANARY}/x` })).status).toBe(404);
    // A query holding one is refused wherever it goes, an unknown route too.
    expect((await injected({ method: 'GET', url: `/nowhere/x?q=${CANARY}` })).status).toBe(400);
    expect((await injected({ method: 'GET', url: `/quotes/v2/${CANARY}/quote/x`, headers })).status).toBe(404);
    const encoded = encodeURIComponent(SPACED);
    expect((await injected({ method: 'GET', url: `/policies/v1/brandau/policies/${encoded}`, headers })).status).toBe(
      404,
    );

    // X-Request-Id and User-Agent on a product read, twice: Fastify, then the front cache.
    // (A card number in the query is refused there too, 400, so the cache never holds such a target.)
    expect((await overHttp('GET', `/products/v1/brandau/brands?utm=${CANARY}`, headers)).status).toBe(400);
    const productPath = '/products/v1/brandau/brands?utm=canary';
    const readHeaders = { ...headers, 'x-request-id': CANARY, 'user-agent': userAgent };
    const before = t.app.frontCache.answered;
    const first = await overHttp('GET', productPath, readHeaders);
    const second = await overHttp('GET', productPath, readHeaders);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(t.app.frontCache.answered).toBe(before + 1);
    for (const answer of [first, second]) expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // A request id that is a card number is replaced on every path, not echoed.
    const unrouted = await overHttp('GET', `/nowhere/${CANARY}`, { 'x-request-id': SPACED.replace(/ /g, '-') });
    expect(unrouted.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    // Quote fields (refused before storing), the query of a quote call.
    const quote = await injected({
      method: 'POST',
      url: '/quotes/v2/brandau/quote',
      headers: { ...headers, 'user-agent': userAgent },
      payload: { input: { quoteType: 'SINGLETRIP', campaignCode: CANARY, homeAddress: { addressLine1: SPACED } } },
    });
    expect(quote.status).toBe(400);
    expect(codeOf(quote)).toBe('CARD_NUMBER_REFUSED');
    const queried = await injected({
      method: 'POST',
      url: `/quotes/v2/brandau/quote?ref=${CANARY}`,
      headers,
      payload: { input: { quoteType: 'SINGLETRIP' } },
    });
    expect([queried.status, codeOf(queried)]).toEqual([400, 'CARD_NUMBER_REFUSED']);

    // Idempotency-Key holding a card number: refused, never stored; a purchase keeps the user agent redacted.
    const ready = await readyQuote(t);
    const keyed = await injected({
      method: 'POST',
      url: '/quotes/v2/brandau/purchase',
      headers: { ...headers, 'idempotency-key': `order-${CANARY}`, 'user-agent': userAgent },
      payload: purchaseBody(ready, CARDS.approved),
    });
    expect([keyed.status, codeOf(keyed)]).toEqual([400, 'CARD_NUMBER_REFUSED']);
    const bought = await injected({
      method: 'POST',
      url: '/quotes/v2/brandau/purchase',
      headers: { ...headers, 'idempotency-key': 'canary-purchase-1', 'user-agent': userAgent },
      payload: purchaseBody(ready, CARDS.approved),
    });
    expect(bought.status).toBe(200);
    const policyNumber = (JSON.parse(bought.body) as { quote: { policyNumber: string } }).quote.policyNumber;
    const details = await injected({
      method: 'GET',
      url: `/policies/v1/brandau/policies/${policyNumber}/details`,
      headers,
    });
    expect(details.status).toBe(200);
    expect(details.body).toContain('CanaryBrowser/1.0');

    // The token endpoint: a card number as username, client_id, grant_type.
    await ensureTestUser(t, 'brandau');
    const form = (fields: Record<string, string>) => ({
      method: 'POST' as const,
      url: '/users/brandau/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
      payload: new URLSearchParams(fields).toString(),
    });
    // Refused as in any body (400 invalid_request), before anything counts a failed login.
    const login = { customerInterfaceId: '8', userTypeId: '4', password: 'wrong' };
    expect(
      (await injected(form({ grant_type: 'password', client_id: 'API', username: CANARY, ...login }))).status,
    ).toBe(400);
    expect(
      (await injected(form({ grant_type: 'password', client_id: 'API', username: SPACED, ...login }))).status,
    ).toBe(400);
    expect((await injected(form({ grant_type: CANARY, client_id: 'API' }))).status).toBe(400);
    expect(
      (await injected(form({ grant_type: 'password', client_id: CANARY, username: 'someone', ...login }))).status,
    ).toBe(400);

    // The routes after a sale: a webhook's URL (path, query) and description, a resend's address
    // and Idempotency-Key, an event feed's query. Each refused before anything is stored.
    for (const payload of [
      { url: `https://hooks.example/${CANARY}` },
      { url: `https://hooks.example/in?card=${encodeURIComponent(SPACED)}` },
      { url: 'https://hooks.example/in', description: `card ${SPACED}` },
    ]) {
      const webhook = await injected({ method: 'POST', url: '/partners/v1/brandau/webhooks', headers, payload });
      expect([webhook.status, codeOf(webhook)]).toEqual([400, 'CARD_NUMBER_REFUSED']);
    }
    const sendPath = `/policies/v1/brandau/policies/${policyNumber}/documents/send`;
    const resend = await injected({
      method: 'POST',
      url: sendPath,
      headers,
      payload: { emailAddress: `${CANARY}@example.com` },
    });
    expect([resend.status, codeOf(resend)]).toEqual([400, 'CARD_NUMBER_REFUSED']);
    const keyedResend = await injected({
      method: 'POST',
      url: sendPath,
      headers: { ...headers, 'idempotency-key': CANARY },
      payload: {},
    });
    expect([keyedResend.status, codeOf(keyedResend)]).toEqual([400, 'CARD_NUMBER_REFUSED']);
    const feed = await injected({ method: 'GET', url: `/partners/v1/brandau/events?after=${CANARY}`, headers });
    expect(feed.status).toBe(400);

    // A server error whose message holds the number.
    expect((await injected({ method: 'GET', url: '/test/failing', headers: { 'user-agent': userAgent } })).status).toBe(
      500,
    );

    // The log lines were written (the haystack is not empty by accident) ...
    const log = logLines.join('\n');
    expect(log).toContain('request completed');
    expect(log).toContain('CanaryBrowser/1.0');
    expect(log).toContain('request failed');
    expect(logLines.length).toBeGreaterThan(15);
    // ... and the canary is nowhere.
    expect(log).not.toMatch(ANY_SPELLING);
    expect(JSON.stringify(answers)).not.toMatch(ANY_SPELLING);
    const rows = await everyRow();
    expect(rows).toContain('CanaryBrowser/1.0');
    expect(rows).not.toMatch(ANY_SPELLING);
  });
});
