import { describe, expect, it } from 'vitest';
import { acceptedReturnUrl, linkExpiresAt } from '../../src/screening/link-service.js';
import { useTestApp } from '../helpers/app.js';
import { catalogueScreeningEngine } from '../helpers/screening-engine.js';
import { fixturePorts, NOW } from '../quotes/fixtures.js';
import { linkOf, pathOf, PERSON_FIELDS, postForm, RETURN_URL, screenableQuote, tokenIn } from './link-support.js';
import { call, PERSON, walk } from './support.js';

let now = NOW;
const getApp = useTestApp({
  clock: () => now,
  appOptions: { quotePorts: fixturePorts(), screeningEngineFor: catalogueScreeningEngine },
});

const codeOf = (res: { statusCode: number; body: string }) => [
  res.statusCode,
  (JSON.parse(res.body) as { validation: { errors: { code: string; property?: string }[] } }).validation.errors[0],
];

/** Walks the page by form posts as a browser without JavaScript would: who, the asked questions, finish. */
async function walkPage(t: ReturnType<typeof getApp>, path: string, condition: string) {
  let page = await t.app.inject({ method: 'GET', url: path });
  let answer = await postForm(t, path, [['step', 'who'], ['csrf', tokenIn(page.body)], ...PERSON_FIELDS]);
  expect([answer.statusCode, answer.headers.location]).toEqual([303, path]);
  for (let i = 0; i < 10; i++) {
    page = await t.app.inject({ method: 'GET', url: path });
    if (!page.body.includes('name="step" value="answers"')) break;
    const names = [...new Set([...page.body.matchAll(/name="(q:[^"]+)"/g)].map((m) => m[1]!))];
    const fields: [string, string][] = names.map((name) => [
      name,
      name.startsWith('q:gate.') ? 'YES' : name === 'q:travelMode' ? 'AIR' : name === 'q:conditions' ? condition : 'NO',
    ]);
    answer = await postForm(t, path, [['step', 'answers'], ['csrf', tokenIn(page.body)], ...fields]);
    expect(answer.statusCode).toBe(303);
  }
  expect(page.body).toContain('name="step" value="complete"');
  answer = await postForm(t, path, [
    ['step', 'complete'],
    ['csrf', tokenIn(page.body)],
  ]);
  expect(answer.statusCode).toBe(303);
  return t.app.inject({ method: 'GET', url: path });
}

describe('the hosted screening link', () => {
  it('expires at the earlier of its hours and the start of the departure day; takes https or local http back', () => {
    const at = new Date('2026-12-09T12:00:00Z');
    expect(linkExpiresAt(at, 24, '2026-12-10')).toBe('2026-12-10T00:00:00.000Z');
    expect(linkExpiresAt(at, 2, '2026-12-10')).toBe('2026-12-09T14:00:00.000Z');
    expect(linkExpiresAt(at, 2, undefined)).toBe('2026-12-09T14:00:00.000Z');
    expect(acceptedReturnUrl('http://localhost:3000/back', false)).toBe('http://localhost:3000/back');
    expect(acceptedReturnUrl('http://localhost:3000/back', true)).toBeUndefined();
    expect(acceptedReturnUrl('https://shop.example/back', true)).toBe('https://shop.example/back');
  });

  it('makes a link shown once, kept as a hash, expiring at the earlier of 24 hours and departure', async () => {
    const t = getApp();
    const quoteId = await screenableQuote(t);
    const res = await linkOf(t, quoteId, { returnUrl: RETURN_URL, language: 'es' });
    expect(res.statusCode).toBe(200);
    const link = res.json<{ url: string; expiresAt: string; language: string }>();
    expect(link.url).toMatch(/\/screening\/v1\/[A-Za-z0-9_-]{43}$/);
    expect([link.expiresAt, link.language]).toEqual(['2026-11-23T00:00:00.000Z', 'es']);
    const rows = await t.context.db.selectFrom('screening_link').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(link.url.split('/').at(-1));
  });

  it('refuses a bad return URL, another partner, a traveller not opted in, a plan without screening, with code and property', async () => {
    const t = getApp();
    const quoteId = await screenableQuote(t);
    for (const returnUrl of ['http://shop.example/x', 'javascript:alert(1)', 'https://u:p@shop.example/'])
      expect(codeOf(await linkOf(t, quoteId, { returnUrl }))).toEqual([
        400,
        expect.objectContaining({ code: 'INVALID_RETURN_URL', property: 'returnUrl' }),
      ]);
    expect((await linkOf(t, quoteId, { returnUrl: 'http://127.0.0.1:8080/back' })).statusCode).toBe(200);
    expect(codeOf(await linkOf(t, quoteId, { returnUrl: RETURN_URL, language: 'fr' }))[0]).toBe(400);
    expect(codeOf(await linkOf(t, quoteId, undefined, 'B'))).toEqual([
      404,
      expect.objectContaining({ code: 'QUOTE_NOT_FOUND' }),
    ]);
    expect(codeOf(await linkOf(t, quoteId, { returnUrl: RETURN_URL }, 'B'))[0]).toBe(404);
    const other = await call(t, quoteId, 'POST', '/link', { returnUrl: RETURN_URL }, 'A', 'adult-2');
    expect(codeOf(other)).toEqual([
      422,
      expect.objectContaining({
        code: 'NOT_OPTED_IN_FOR_SCREENING',
        property: 'travelClearOption.isOptedInForScreening',
      }),
    ]);
    // A plan that offers no screening (BASIC): no link, as no start.
    const basic = await screenableQuote(t, 103);
    expect(codeOf(await linkOf(t, basic))).toEqual([422, expect.objectContaining({ code: 'SCREENING_NOT_OFFERED' })]);
  });

  it('opens nothing for an unknown value (404), 410 once expired or replaced; its headers keep the secret', async () => {
    const t = getApp();
    const quoteId = await screenableQuote(t);
    const first = pathOf((await linkOf(t, quoteId)).json<{ url: string }>().url);
    const page = await t.app.inject({ method: 'GET', url: first });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
    expect(page.headers['content-security-policy']).not.toContain('script-src');
    expect([page.headers['referrer-policy'], page.headers['x-robots-tag'], page.headers['cache-control']]).toEqual([
      'no-referrer',
      'noindex, nofollow',
      'no-store',
    ]);
    expect((await t.app.inject({ method: 'GET', url: `${first.slice(0, -2)}xx` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/screening/v1/short' })).statusCode).toBe(404);
    const second = pathOf((await linkOf(t, quoteId)).json<{ url: string }>().url);
    expect((await t.app.inject({ method: 'GET', url: first })).statusCode).toBe(410);
    const stale = await postForm(t, first, [['step', 'who'], ['csrf', tokenIn(page.body)], ...PERSON_FIELDS]);
    expect(stale.statusCode).toBe(410);
    expect((await t.app.inject({ method: 'GET', url: second })).statusCode).toBe(200);
    now = new Date(NOW.getTime() + 25 * 3_600_000);
    try {
      expect((await t.app.inject({ method: 'GET', url: second })).statusCode).toBe(410);
    } finally {
      now = NOW;
    }
    expect(codeOf(await call(t, quoteId, 'GET'))).toEqual([
      404,
      expect.objectContaining({ code: 'SCREENING_NOT_FOUND' }),
    ]);
  });

  it('changes nothing on GET, refuses a wrong or missing CSRF token with nothing stored, shows problems by field', async () => {
    const t = getApp();
    const quoteId = await screenableQuote(t);
    const path = pathOf((await linkOf(t, quoteId)).json<{ url: string }>().url);
    const page = await t.app.inject({ method: 'GET', url: path });
    await t.app.inject({ method: 'GET', url: path });
    expect((await call(t, quoteId, 'GET')).statusCode).toBe(404);
    const otherLink = pathOf(
      (await call(t, await screenableQuote(t), 'POST', '/link', { returnUrl: RETURN_URL })).json<{ url: string }>().url,
    );
    const otherToken = tokenIn((await t.app.inject({ method: 'GET', url: otherLink })).body);
    for (const csrf of [[], [['csrf', 'x']], [['csrf', otherToken]]] as [string, string][][]) {
      const refused = await postForm(t, path, [['step', 'who'], ...csrf, ...PERSON_FIELDS]);
      expect(refused.statusCode).toBe(403);
    }
    // The "answers" step's token is not the "who" step's.
    const wrongStep = await postForm(t, path, [
      ['step', 'answers'],
      ['csrf', tokenIn(page.body)],
    ]);
    expect(wrongStep.statusCode).toBe(403);
    expect((await call(t, quoteId, 'GET')).statusCode).toBe(404);
    expect(await t.context.db.selectFrom('screening').select('id').execute()).toEqual([]);
    const missing = await postForm(t, path, [
      ['step', 'who'],
      ['csrf', tokenIn(page.body)],
      ['who', 'OTHER'],
    ]);
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('href="#person-firstName"');
    expect(missing.body).toContain('aria-invalid="true"');
    // The page's own form, submitted whole, starts the screening.
    const started = await postForm(t, path, [['step', 'who'], ['csrf', tokenIn(missing.body)], ...PERSON_FIELDS]);
    expect(started.statusCode).toBe(303);
    const asked = await t.app.inject({ method: 'GET', url: path });
    const unanswered = await postForm(t, path, [
      ['step', 'answers'],
      ['csrf', tokenIn(asked.body)],
    ]);
    expect(unanswered.statusCode).toBe(400);
    expect(unanswered.body).toContain('href="#q0-c0"');
    expect((await call(t, quoteId, 'GET')).json<{ status: string }>().status).toBe('IN_PROGRESS');
  });

  it('gives through the page the result the API gives, and the way back carries no condition', async () => {
    const t = getApp();
    const quoteId = await screenableQuote(t);
    const path = pathOf((await linkOf(t, quoteId)).json<{ url: string }>().url);
    const result = await walkPage(t, path, 'TEST_COVERED');
    expect(result.statusCode).toBe(200);
    const back = /class="button" href="([^"]+)"/.exec(result.body)?.[1]?.replaceAll('&amp;', '&');
    expect(back).toBe(`${RETURN_URL}&quoteId=${quoteId}&travellerGuid=adult-1&screeningStatus=COMPLETED`);
    const viaPage = (await call(t, quoteId, 'GET')).json<{ status: string; result: Record<string, unknown> }>();
    expect(viaPage.status).toBe('COMPLETED');
    expect(result.body).toContain(String(viaPage.result.tamisReferenceNumber));
    // The API's walk of the same answers on another quote: the same outcome and amounts.
    const viaApi = await walk(t, await screenableQuote(t), ['TEST_COVERED']);
    const { tamisReferenceNumber: _a, screeningDate: _b, ...pageResult } = viaPage.result;
    const { tamisReferenceNumber: _c, screeningDate: _d, ...apiResult } = viaApi.result!;
    expect(pageResult).toEqual({ ...apiResult, authorizedPerson: PERSON });
  });
});

describe('the hosted screening page under its per-address limit', () => {
  const getLimited = useTestApp({
    clock: () => NOW,
    env: { RATE_LIMITS: 'true', RATE_LIMIT_SCREENING_LINK_PER_ADDRESS: '2' },
    appOptions: { quotePorts: fixturePorts(), screeningEngineFor: catalogueScreeningEngine },
  });

  it('answers 429 with Retry-After past the budget, whatever value is tried', async () => {
    const t = getLimited();
    for (let i = 0; i < 2; i++)
      expect((await t.app.inject({ method: 'GET', url: `/screening/v1/guess${i}` })).statusCode).toBe(404);
    const refused = await t.app.inject({ method: 'GET', url: '/screening/v1/guess3' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.headers['cache-control']).toBe('no-store');
  });
});
