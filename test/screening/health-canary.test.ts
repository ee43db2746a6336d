import { Writable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { loggerOptions } from '../../src/logging/options.js';
import { everyRowText } from '../helpers/every-row.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { startSmtpServer } from '../helpers/smtp-server.js';
import { CARDS, detailedTrip, NOW, planOf, purchaseBody } from '../purchases/support.js';
import { workerOf } from '../documents/delivery-support.js';
import { registerEndpoint, startWebhookReceiver, webhookWorker, type WebhookReceiver } from '../webhooks/support.js';
import { PERSON } from './support.js';

/**
 * The health-data canary (issue 30 "Done when"; checklist 51): a traveller declares type 2
 * diabetes treated with insulin (catalogue/shared/screening.yaml), is screened, buys, cancels, and
 * sends bad answers on the way, with a webhook endpoint subscribed and e-mails going to a real SMTP
 * receiver. Afterwards the condition's code, its names and synonyms in en and es, and the answer's
 * code and texts are in no log line (trace level), no error answer, no stored event, no webhook
 * body, no e-mail (subject, headers, text and HTML) and no table in clear.
 *
 * Not scanned, by decision: the screening endpoints' own successful answers (they are the partner's
 * questionnaire: questions and results, for the selling partner only) and the certificate PDF
 * attached to the traveller's e-mail (the traveller's own document of their cover; it may list
 * their conditions). The catalogue's tables hold the questionnaire itself, not anyone's answers.
 */
const CONDITION = 'DIABETES_TYPE_2';
const ANSWER = 'INSULIN';
const NEEDLES =
  /DIABETES_TYPE_2|type 2 diabetes|diabetes tipo 2|diabetes mellitus|high blood sugar|az[uú]car alto|INSULIN|with insulin|con insulina/i;
const CATALOGUE_TABLES = /^catalogue/;

interface Answer {
  url: string;
  status: number;
  body: string;
}

const logLines: string[] = [];
const answers: Answer[] = [];
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let receiver: WebhookReceiver;

beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  smtp = await startSmtpServer();
  receiver = await startWebhookReceiver();
  const env = { DEMO_DATA: 'true', LOG_LEVEL: 'trace', SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'https://api.example' };
  t = await buildTestApp({
    env,
    clock: () => NOW,
    appOptions: { logger: { ...loggerOptions(loadConfig(env)), stream } },
  });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
  await smtp.close();
});

/** One request as partner A of brandau, its answer kept for the scan. */
async function injected(options: InjectOptions & { url: string }) {
  const headers = { ...(await bearerFor(t, 'brandau')), ...(options.headers ?? {}) };
  const res = await t.app.inject({ ...options, headers });
  answers.push({ url: options.url, status: res.statusCode, body: res.body });
  return res;
}

const screeningUrl = (quoteId: string, tail = '') =>
  `/quotes/v2/brandau/quote/${quoteId}/travellers/adult-1/screening${tail}`;

interface Question {
  id: string;
  kind: string;
}

const everyRow = () =>
  everyRowText(
    t.context.db,
    ['screening', 'quote', 'policy_traveller', 'partner_event', 'outbox_message'],
    CATALOGUE_TABLES,
  );

describe(`a declared condition and its answers are kept nowhere in clear (${DIALECT})`, () => {
  it('through screening, quote, purchase and cancellation: no log, error, event, webhook, e-mail or table', async () => {
    await registerEndpoint(t, { url: receiver.url });
    const plan = await planOf(t, 'brandau', 'COMP');
    const trip = detailedTrip(plan.planId);
    const input = {
      ...trip,
      policyHolders: trip.policyHolders.map((h, i) => ({
        ...h,
        travelClearOption: { optionType: 'TRAVELCLEAR', isOptedInForScreening: i === 0, isOptedInForCover: i === 0 },
      })),
    };
    const created = await injected({ method: 'POST', url: '/quotes/v2/brandau/quote', payload: { input } });
    const quoteId = created.json<{ id: string }>().id;
    const refresh = () =>
      injected({
        method: 'PUT',
        url: `/quotes/v2/brandau/quote/${quoteId}`,
        payload: { stage: 'MEDICAL_SCREENING', input },
      });
    await refresh();

    // The screening: gates YES, by air, the condition, then its follow-ups (treatment: insulin).
    let screening = (
      await injected({ method: 'POST', url: screeningUrl(quoteId), payload: { authorizedPerson: PERSON } })
    ).json<{ questions: Question[] }>();
    const bad: Awaited<ReturnType<typeof injected>>[] = [];
    while (screening.questions.length > 0) {
      const choose = (q: Question) =>
        q.kind === 'GATE'
          ? ['YES']
          : q.kind === 'TRAVEL_MODE'
            ? ['AIR']
            : q.kind === 'CONDITIONS'
              ? [CONDITION]
              : q.id === `${CONDITION}.treatment`
                ? [ANSWER]
                : ['NO'];
      // Bad answers first, each holding the health data: unknown codes, an unknown question, a wrong shape.
      const first = screening.questions[0]!;
      for (const payload of [
        { answers: [{ questionId: first.id, choiceCodes: [ANSWER, 'Type 2 diabetes', 'azúcar alto'] }] },
        { answers: [{ questionId: `${CONDITION}.insulin`, choiceCodes: ['Con insulina'] }] },
        { answers: [{ questionId: first.id, choiceCodes: 'Diabetes tipo 2 with insulin' }] },
        { answers: 'DIABETES_TYPE_2=INSULIN' },
      ])
        bad.push(await injected({ method: 'POST', url: screeningUrl(quoteId, '/answers'), payload }));
      const answered = await injected({
        method: 'POST',
        url: screeningUrl(quoteId, '/answers'),
        payload: { answers: screening.questions.map((q) => ({ questionId: q.id, choiceCodes: choose(q) })) },
      });
      expect(answered.statusCode, answered.body).toBe(200);
      screening = answered.json();
    }
    expect(bad.length).toBeGreaterThan(0);
    for (const answer of bad) expect(answer.statusCode, answer.body).toBeGreaterThanOrEqual(400);
    const done = await injected({ method: 'POST', url: screeningUrl(quoteId, '/complete') });
    expect(done.statusCode, done.body).toBe(200);
    const result = done.json<{ result: { conditions: { conditionCode: string; outcome: string }[] } }>().result;
    expect(result.conditions.map((c) => c.conditionCode)).toContain(CONDITION);
    // The needles do match where they belong: the partner's own result, the sealed row (opened).
    expect(done.body).toMatch(NEEDLES);
    expect(await t.context.db.selectFrom('screening').select('answers_sealed').executeTakeFirst()).toMatchObject({
      answers_sealed: expect.any(String) as unknown,
    });

    // Quote, purchase, the e-mail, the events and their webhooks, then a cancellation and its own.
    expect((await refresh()).statusCode).toBe(200);
    const bought = await injected({
      method: 'POST',
      url: '/quotes/v2/brandau/purchase',
      payload: purchaseBody({ id: quoteId, termIds: plan.termIds }, CARDS.approved),
    });
    expect(bought.statusCode, bought.body).toBe(200);
    const policyNumber = bought.json<{ quote: { policyNumber: string } }>().quote.policyNumber;
    const base = `/policies/v1/brandau/policies/${policyNumber}`;
    expect((await injected({ method: 'GET', url: base })).statusCode).toBe(200);
    const preview = await injected({
      method: 'POST',
      url: `${base}/cancellations`,
      payload: { reasonCode: 'TRIP_CANCELLED' },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const confirmed = await injected({
      method: 'POST',
      url: `${base}/cancellations/${preview.json<{ id: string }>().id}/confirm`,
      headers: { 'idempotency-key': 'health-canary-cancel' },
      payload: {},
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const mails = workerOf(t);
    const hooks = webhookWorker(t);
    try {
      while ((await mails.runOnce()) > 0);
      while ((await hooks.runOnce()) > 0);
    } finally {
      await mails.stop();
      await hooks.stop();
    }

    // The haystacks are not empty by accident ...
    expect(smtp.received.length).toBeGreaterThanOrEqual(2);
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
    expect(logLines.length).toBeGreaterThan(20);
    const log = logLines.join('\n');
    expect(log).toContain('request completed');
    // ... and the condition and its answer are in none of them.
    expect(log).not.toMatch(NEEDLES);
    const errors = answers.filter((a) => a.status >= 400);
    expect(errors.length).toBeGreaterThanOrEqual(bad.length);
    for (const error of errors) expect(`${error.url} ${error.body}`).not.toMatch(NEEDLES);
    for (const hook of receiver.received) expect(`${hook.path} ${hook.body}`).not.toMatch(NEEDLES);
    for (const { mail } of smtp.received) {
      const headers = mail.headerLines.map((h) => h.line).join('\n');
      const attachments = mail.attachments.map((a) => a.filename ?? '').join('\n');
      const parts = [mail.subject ?? '', headers, mail.text ?? '', typeof mail.html === 'string' ? mail.html : ''];
      expect([...parts, attachments].join('\n')).not.toMatch(NEEDLES);
    }
    const rows = await everyRow();
    expect(rows).toContain(policyNumber);
    expect(rows).not.toMatch(NEEDLES);
  });
});
