import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { pdfText } from '../documents/pdf-text.js';
import { policyScreeningsFor } from '../../src/documents/live-ports.js';
import { useMailingApp, workerOf, type Received } from '../documents/delivery-support.js';
import { books, CARDS, NOW, purchase, purchaseBody, type PurchaseAnswer } from '../purchases/support.js';
import { certificateText, medicalLines, policyTravellers, screenedQuote } from './quote-walk.js';
import { call, PERSON, walk } from './support.js';

// One walk per screening outcome on the running app's own ports (the stored catalogue's engine and
// its fixed TEST_* conditions), beside walk.test.ts (covered with a loading, referred, stale). The
// app mails the documents to a real SMTP receiver: a condition name must reach the certificate only.
let t: TestApp;
let smtp: { received: Received[] };
useMailingApp(NOW, (app, receiver) => {
  t = app;
  smtp = receiver;
});

/** Outcomes that leave the traveller covered for the rest: sold, no MEDICAL line (no loading). */
const SOLD = [
  {
    condition: 'TEST_EXCLUDED',
    name: 'Test: excluded',
    es: 'Prueba: excluida',
    outcome: 'EXCLUDED',
    says: 'excluded: claims arising',
  },
  {
    condition: 'TEST_DECLINED',
    name: 'Test: declined',
    es: 'Prueba: rechazada',
    outcome: 'DECLINED',
    says: 'cover declined: claims arising',
  },
  {
    condition: 'TEST_AUTO_COVERED',
    name: 'Test: automatically covered',
    es: 'Prueba: cubierta automáticamente',
    outcome: 'AUTO_COVERED',
    says: 'covered automatically',
  },
] as const;

/** The purchase of a quote with the approved card. */
const buy = async (quote: Awaited<ReturnType<typeof screenedQuote>>) =>
  (
    await purchase(t, purchaseBody({ id: quote.id, termIds: quote.plan.termIds }, CARDS.approved))
  ).json<PurchaseAnswer>();

/** Everything of a policy that leaves the app other than its PDFs: the e-mail (text, HTML, headers) and its events. */
async function outsideDocuments(policyNumber: string): Promise<string> {
  smtp.received.length = 0;
  expect(await workerOf(t).runOnce()).toBeGreaterThanOrEqual(1);
  const mails = smtp.received.filter((r) => r.mail.subject?.includes(policyNumber));
  expect(mails).toHaveLength(1);
  const { mail } = mails[0]!;
  const events = await t.context.db
    .selectFrom('partner_event')
    .select('data_json')
    .where('policy_number', '=', policyNumber)
    .execute();
  expect(events.length).toBeGreaterThan(0);
  const headers = [...mail.headers.entries()].map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return [mail.text ?? '', String(mail.html), ...headers, ...events.map((e) => e.data_json)].join('\n');
}

describe(`medical screening: a walk per outcome (${DIALECT})`, () => {
  it.each(SOLD)('$outcome: no medical premium, sold, shown on the policy and its certificate only', async (c) => {
    const quote = await screenedQuote(t);
    expect(quote.waiting.validation.errors.map((e) => e.code)).toContain('SCREENING_REQUIRED');
    const screening = await walk(t, quote.id, [c.condition]);
    const travellerOutcome = c.outcome === 'AUTO_COVERED' ? 'COVERED' : 'COVERED_WITH_EXCLUSIONS';
    expect(screening.result).toMatchObject({ outcome: travellerOutcome, medicalPremium: 0, excess: 0 });
    expect(screening.result?.conditions).toEqual([
      expect.objectContaining({ conditionCode: c.condition, outcome: c.outcome }),
    ]);

    const refreshed = await quote.refresh();
    expect(refreshed.stage).toBe('MEDICAL_SCREENING');
    expect(refreshed.validation.errors).toEqual([]);
    // No loading: the traveller's MEDICAL line is 0 (docs/api-contract.md: the quote shows the screening).
    expect(medicalLines(refreshed, quote.plan.planId)).toEqual([
      expect.objectContaining({ policyHolderGuid: 'adult-1', saleListPrice: 0 }),
    ]);

    const sold = await buy(quote);
    const policyNumber = sold.quote.policyNumber!;
    expect(policyNumber).toBeDefined();
    const reference = screening.result!.tamisReferenceNumber;
    const travellers = await policyTravellers(t, policyNumber);
    expect(travellers.find((p) => p.guid === 'adult-1')?.travelClear).toMatchObject({
      tamisReferenceNumber: reference,
      screeningDate: screening.result!.screeningDate,
      authorizedPerson: expect.objectContaining({ firstName: PERSON.firstName, surname: PERSON.surname }),
      isCovered: true,
    });
    // The other adult said no: opted out, nothing screened, nothing on the certificate.
    expect(travellers.find((p) => p.guid === 'adult-2')?.travelClear).toEqual({ isCovered: false });

    // What the documents' port reads: the condition in every language of the screening's catalogue version.
    const held = await policyScreeningsFor(t.context).onPolicy(quote.id, [reference]);
    expect(held.map((h) => h.conditions.map((x) => x.names))).toEqual([[{ en: c.name, es: c.es }]]);
    const text = await certificateText(t, policyNumber);
    expect(text).toContain('Medical conditions');
    expect(text).toContain(
      `Ada Lovelace: medical screening ${reference} of ${screening.result!.screeningDate.slice(0, 10)}`,
    );
    expect(text).toContain(`${c.name}: ${c.says}`);
    expect(text).not.toContain('Charles Babbage: medical screening');

    const outside = await outsideDocuments(policyNumber);
    expect(outside).toContain(policyNumber);
    for (const health of [c.name, c.condition]) expect(outside).not.toContain(health);
    // The attachment is the same certificate, with the condition.
    const mailed = smtp.received[0]!.mail.attachments.find((a) => a.filename?.startsWith('certificate-'));
    expect(await pdfText(new Uint8Array(mailed!.content))).toContain(c.name);
  });

  it('a declined traveller blocks the purchase with SCREENING_DECLINED before any money moves', async () => {
    const quote = await screenedQuote(t);
    const screening = await walk(t, quote.id, ['TEST_DECLINE_TRAVELLER']);
    expect(screening.result).toMatchObject({ outcome: 'DECLINED', medicalPremium: 0 });
    const refreshed = await quote.refresh();
    expect(medicalLines(refreshed, quote.plan.planId).map((l) => l.saleListPrice)).toEqual([0]);
    const body = await buy(quote);
    expect(body.quote.isPurchased).toBe(false);
    expect(body.validation.errors).toContainEqual(
      expect.objectContaining({
        code: 'SCREENING_DECLINED',
        property: 'quote.input.policyHolders[0].travelClearOption',
      }),
    );
    expect(JSON.stringify(body)).not.toContain('Test: traveller declined');
    expect(await books(t, quote.id)).toMatchObject({ policies: 0, captures: 0, authorisations: 0 });
  });

  it('a plan without screening (BASIC): the start answers SCREENING_NOT_OFFERED; opted out, it sells with no medical cover', async () => {
    const quote = await screenedQuote(t, 'BASIC');
    const start = await call(t, quote.id, 'POST', '', { authorizedPerson: PERSON });
    expect(start.statusCode).toBe(422);
    expect(start.json()).toMatchObject({
      validation: { errors: [expect.objectContaining({ code: 'SCREENING_NOT_OFFERED', property: 'input.planId' })] },
    });
    // The quote names the cause on the opted-in traveller and stays at DETAILS; opting out lets it on.
    for (const answer of [quote.waiting, await quote.refresh()]) {
      expect(answer.stage).toBe('DETAILS');
      expect(answer.validation.errors).toContainEqual(
        expect.objectContaining({
          code: 'SCREENING_NOT_OFFERED',
          property: 'input.policyHolders[0].travelClearOption',
        }),
      );
      expect(answer.validation.errors.map((e) => e.code)).not.toContain('SCREENING_REQUIRED');
    }
    // A purchase asked anyway says the same, before any money moves.
    const refused = await buy(quote);
    expect(refused.quote.isPurchased).toBe(false);
    expect(refused.validation.errors.map((e) => e.code)).toContain('SCREENING_NOT_OFFERED');
    expect(refused.validation.errors.map((e) => e.code)).not.toContain('SCREENING_REQUIRED');
    expect(await books(t, quote.id)).toMatchObject({ policies: 0, captures: 0, authorisations: 0 });
    const optedOut = {
      ...quote.trip,
      policyHolders: quote.trip.policyHolders.map((h) => ({
        ...h,
        travelClearOption: { optionType: 'TRAVELCLEAR', isOptedInForScreening: false, isOptedInForCover: false },
      })),
    };
    const refreshed = await quote.refresh(optedOut);
    expect(refreshed.stage).toBe('MEDICAL_SCREENING');
    expect(medicalLines(refreshed, quote.plan.planId)).toEqual([]);
    const sold = await buy(quote);
    const policyNumber = sold.quote.policyNumber!;
    expect(policyNumber).toBeDefined();
    const travellers = await policyTravellers(t, policyNumber);
    expect(travellers.find((p) => p.guid === 'adult-1')?.travelClear).toEqual({ isCovered: false });
    expect(await certificateText(t, policyNumber)).not.toContain('Medical conditions');
  });
});
