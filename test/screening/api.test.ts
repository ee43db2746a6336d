import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { useTestApp } from '../helpers/app.js';
import { catalogueScreeningEngine } from '../helpers/screening-engine.js';
import { baliTrip, fixturePorts, NOW } from '../quotes/fixtures.js';
import { asPartner } from '../quotes/partners.js';
import { call, PERSON, walk } from './support.js';

const getApp = useTestApp({
  clock: () => NOW,
  appOptions: { quotePorts: fixturePorts(), screeningEngineFor: catalogueScreeningEngine },
});

function tripInput(planId = 101) {
  const input = baliTrip();
  input.planId = planId;
  input.policyHolders[0]!.travelClearOption = { optionType: 'TRAVELCLEAR', isOptedInForScreening: true };
  return input;
}

async function newQuote(t: TestApp, planId = 101): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/quotes/v2/brandau/quote',
    headers: await asPartner(t, 'brandau'),
    payload: { input: tripInput(planId) },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ id: string }>().id;
}

describe('screening API', () => {
  it.each([
    [['TEST_COVERED'], 'COVERED', 'COVERED'],
    [['TEST_AUTO_COVERED'], 'COVERED', 'AUTO_COVERED'],
    [['TEST_EXCLUDED'], 'COVERED_WITH_EXCLUSIONS', 'EXCLUDED'],
    [['TEST_DECLINED'], 'COVERED_WITH_EXCLUSIONS', 'DECLINED'],
    [['TEST_DECLINE_TRAVELLER'], 'DECLINED', 'DECLINED'],
    [['TEST_REFERRED'], 'REFERRED', 'REFERRED'],
  ])('walks %j to traveller %s (condition %s)', async (conditions, traveller, condition) => {
    const t = getApp();
    const quoteId = await newQuote(t);
    const done = await walk(t, quoteId, conditions);
    expect(done.status).toBe('COMPLETED');
    expect(done.result?.outcome).toBe(traveller);
    expect(done.result?.conditions.map((c) => c.outcome)).toEqual([condition]);
    expect(done.result?.tamisReferenceNumber).toMatch(/^TC-[0-9A-HJKMNP-TV-Z]{16}$/);
    expect(done.result?.authorizedPerson).toEqual(PERSON);
    if (condition === 'COVERED') expect([done.result?.medicalPremium, done.result?.excess]).toEqual([60, 100]);
    // Completing again answers the same result; GET reads it.
    const again = (await call(t, quoteId, 'POST', '/complete')).json();
    expect(again.result.tamisReferenceNumber).toBe(done.result?.tamisReferenceNumber);
    expect((await call(t, quoteId, 'GET')).json()).toEqual(done);
  });

  it('needs no screening when every gate is answered NO', async () => {
    const t = getApp();
    const done = await walk(t, await newQuote(t), [], true);
    expect(done.result?.outcome).toBe('NO_SCREENING_NEEDED');
    expect(done.result?.conditions).toEqual([]);
  });

  it('refuses a bad answer with a 400 naming the question, not the answer', async () => {
    const t = getApp();
    const quoteId = await newQuote(t);
    await call(t, quoteId, 'POST', '', { authorizedPerson: PERSON });
    const res = await call(t, quoteId, 'POST', '/answers', {
      answers: [{ questionId: 'gate.hospital', choiceCodes: ['MAYBE-SECRET'] }],
    });
    expect(res.statusCode).toBe(400);
    const error = res.json().validation.errors[0];
    expect(error).toMatchObject({ code: 'ANSWER_UNKNOWN_CHOICE', property: 'answers[0].choiceCodes' });
    expect(res.body).not.toContain('MAYBE-SECRET');
    const notAsked = await call(t, quoteId, 'POST', '/answers', {
      answers: [{ questionId: 'conditions', choiceCodes: ['TEST_COVERED'] }],
    });
    expect(notAsked.json().validation.errors[0]).toMatchObject({
      code: 'ANSWER_NOT_ASKED',
      property: 'answers[0].questionId',
    });
    expect(notAsked.body).not.toContain('TEST_COVERED');
    const early = await call(t, quoteId, 'POST', '/complete');
    expect([early.statusCode, early.json().validation.errors[0].code]).toEqual([409, 'SCREENING_INCOMPLETE']);
  });

  it('answers 404 to another partner and clear 4xx when not opted in, not offered or not a traveller', async () => {
    const t = getApp();
    const quoteId = await newQuote(t);
    await call(t, quoteId, 'POST', '', { authorizedPerson: PERSON });
    const other = await call(t, quoteId, 'GET', '', undefined, 'B');
    expect([other.statusCode, other.json().validation.errors[0].code]).toEqual([404, 'QUOTE_NOT_FOUND']);
    const code = (res: Awaited<ReturnType<typeof call>>): unknown[] => [
      res.statusCode,
      res.json<{ validation: { errors: { code: string }[] } }>().validation.errors[0]?.code,
    ];
    expect(code(await call(t, quoteId, 'POST', '', { authorizedPerson: PERSON }, 'A', 'adult-2'))).toEqual([
      422,
      'NOT_OPTED_IN_FOR_SCREENING',
    ]);
    expect(code(await call(t, quoteId, 'POST', '', { authorizedPerson: PERSON }, 'A', 'nobody'))).toEqual([
      404,
      'TRAVELLER_NOT_FOUND',
    ]);
    const basic = await newQuote(t, 103);
    expect(code(await call(t, basic, 'POST', '', { authorizedPerson: PERSON }))).toEqual([
      422,
      'SCREENING_NOT_OFFERED',
    ]);
    expect(code(await call(t, quoteId, 'GET', '', undefined, 'A', 'adult-2'))).toEqual([404, 'SCREENING_NOT_FOUND']);
  });

  it('reads STALE once the trip changes, and starting again replaces it', async () => {
    const t = getApp();
    const quoteId = await newQuote(t);
    await walk(t, quoteId, ['TEST_COVERED']);
    const input = tripInput();
    input.returnDate = '2026-12-27';
    const put = await t.app.inject({
      method: 'PUT',
      url: `/quotes/v2/brandau/quote/${quoteId}`,
      headers: await asPartner(t, 'brandau'),
      payload: { input },
    });
    expect(put.statusCode).toBe(200);
    const stale = (await call(t, quoteId, 'GET')).json();
    expect(stale.status).toBe('STALE');
    expect(stale.result).toBeUndefined();
    const answer = await call(t, quoteId, 'POST', '/answers', {
      answers: [{ questionId: 'gate.hospital', choiceCodes: ['NO'] }],
    });
    expect([answer.statusCode, answer.json().validation.errors[0].code]).toEqual([409, 'SCREENING_NOT_IN_PROGRESS']);
    const redone = await walk(t, quoteId, ['TEST_EXCLUDED']);
    expect([redone.status, redone.result?.outcome]).toEqual(['COMPLETED', 'COVERED_WITH_EXCLUSIONS']);
  });

  it('keeps the answers, the person and the condition codes sealed in the table', async () => {
    const t = getApp();
    const quoteId = await newQuote(t);
    await walk(t, quoteId, ['TEST_REFERRED']);
    const row = await t.context.db
      .selectFrom('screening')
      .selectAll()
      .where('quote_id', '=', quoteId)
      .executeTakeFirstOrThrow();
    const text = JSON.stringify(row);
    for (const secret of ['TEST_REFERRED', 'Canary', 'alex@example.com', 'gate.hospital', 'AIR'])
      expect(text).not.toContain(secret);
    expect(row.traveller_outcome).toBe('REFERRED');
  });
});
