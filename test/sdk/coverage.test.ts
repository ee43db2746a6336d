import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../sdk/src/index.js';
import { SANDBOX_CARD_TOKENS as CARDS } from '../../src/payments/sandbox/cards.js';
import { DIALECT } from '../helpers/database.js';
import { until } from '../helpers/polling.js';
import { useWebhookReceiver } from '../helpers/webhook-receiver.js';
import { demoClient, readyPurchase, required, tripInput, useSdkServer } from './support.js';

const PERSON = {
  firstName: 'Alex',
  surname: 'Smith',
  dateOfBirth: '1980-04-02',
  email: 'alex@example.com',
  phone: '+61 400 000 000',
};

/** The answer to each question: gates YES, travel by air, one covered test condition, follow-ups NO. */
function answerTo(question: Schemas['ScreeningQuestion']): { questionId: string; choiceCodes: string[] } {
  const byKind: Record<string, string[]> = { GATE: ['YES'], TRAVEL_MODE: ['AIR'], CONDITIONS: ['TEST_COVERED'] };
  return { questionId: question.id, choiceCodes: byKind[question.kind] ?? ['NO'] };
}

/** The methods of the operations the walk does not reach, each against a real server, with no cast. */
describe(`SDK: every partner operation has a working method (${DIALECT})`, () => {
  const getServer = useSdkServer();
  const receiver = useWebhookReceiver();

  it('brand content, PDS summary and PDS (the PDF bytes)', async () => {
    const client = demoClient(getServer().url);
    const brands = await client.products.brands({ lang: 'en' });
    expect(brands.code).toBe('brandau');
    const byId = await client.products.brand(1);
    expect(byId.code).toBe('brandau');
    const plan = await client.products.plan({ planCode: 'COMP', partnerCode: 'DEMOA' });
    const contract = required(plan.insuranceContractId, 'insuranceContractId');
    const summary = await client.products.pdsSummary(contract);
    expect(summary.contentTypeCode).toBeDefined();
    const pdf = await client.products.pds(contract);
    expect(pdf).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe('%PDF-');
  });

  it("screens a quote's traveller: start, answers, complete, read, link", async () => {
    const client = demoClient(getServer().url);
    const plan = await client.products.plan({ planCode: 'COMP', partnerCode: 'DEMOA' });
    const input = tripInput(required(plan.planId, 'planId'));
    const policyHolders = input.policyHolders?.map((holder) => ({
      ...holder,
      travelClearOption: { optionType: 'TRAVELCLEAR' as const, isOptedInForScreening: true, isOptedInForCover: true },
    }));
    const quote = await client.quotes.create({ stage: 'DETAILS', input: { ...input, policyHolders } });
    const quoteId = required(quote.id, 'quote id');
    const guid = 'traveller-1';

    let screening = await client.quotes.screening.start(quoteId, guid, { authorizedPerson: PERSON });
    expect(screening.status).toBe('IN_PROGRESS');
    while (screening.questions.length > 0)
      screening = await client.quotes.screening.answer(quoteId, guid, { answers: screening.questions.map(answerTo) });
    const done = await client.quotes.screening.complete(quoteId, guid);
    expect(done.status).toBe('COMPLETED');
    expect(done.result?.outcome).toBe('COVERED');
    expect(await client.quotes.screening.get(quoteId, guid)).toEqual(done);

    const link = await client.quotes.screening.link(quoteId, guid, { returnUrl: 'http://127.0.0.1/back' });
    expect(link.url).toMatch(/\/screening\/v1\//);
    expect(Date.parse(link.expiresAt)).toBeGreaterThan(Date.now());
  });

  it("withdraws a referred quote's referral", async () => {
    const client = demoClient(getServer().url);
    const plan = await client.products.plan({ planCode: 'COMP', partnerCode: 'DEMOA' });
    // A watched destination refers the quote to an underwriter.
    const input = { ...tripInput(required(plan.planId, 'planId')), destinationCountryCodes: ['VEN'] };
    const quote = await client.quotes.create({ stage: 'DETAILS', input });
    expect(quote.referral?.status).toBe('REFERRED');
    const withdrawn = await client.quotes.withdrawReferral(required(quote.id, 'quote id'));
    expect(withdrawn.status).toBe('WITHDRAWN');
  });

  it('redelivers a time range, and reads a statement as JSON, CSV and PDF', async () => {
    const client = demoClient(getServer().url);
    const from = new Date(Date.now() - 60_000).toISOString();
    const hook = await client.webhooks.create({ url: receiver().url, eventTypes: ['policy.issued'] });
    const { body } = await readyPurchase(client, CARDS.approved);
    const bought = await client.purchases.create(body);
    expect(bought.paymentResult).toBe('APPROVED');
    await until(() => receiver().received.length > 0, 'the policy.issued delivery');

    const { count } = await client.events.redeliverRange({
      from,
      to: new Date(Date.now() + 60_000).toISOString(),
      webhookId: hook.webhookId,
    });
    expect(count).toBeGreaterThanOrEqual(1);
    await until(() => receiver().received.length > 1, 'the redelivery');

    const { statements } = await client.statements.list();
    const month = required(statements[0], 'a statement month').month;
    const statement = await client.statements.get(month);
    expect(statement.transactions.map((t) => t.policyNumber)).toContain(bought.quote?.policyNumber);
    const csv = await client.statements.get(month, { format: 'csv' });
    expect(csv.split('\r\n')[0]).toMatch(/^record,month,/);
    const invoice = await client.statements.get(month, { format: 'pdf' });
    expect(new TextDecoder().decode(invoice.slice(0, 5))).toBe('%PDF-');
  });
});
