import { describe, expect, it } from 'vitest';
import { amountTextIn } from '../../src/kernel/money/currency.js';
import { recordPayment } from '../../src/statements/payments.js';
import { catalogueReaderFor } from '../../src/catalogue/reader.js';
import { useTestApp, type TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { isPdf, pdfText } from '../documents/pdf-text.js';
import {
  boughtPolicy,
  CARDS,
  confirm,
  details,
  previewAmendment,
  previewCancellation,
  type ChangeAnswer,
} from '../policy-changes/support.js';
import {
  getStatements,
  minor,
  onAccountChange,
  onAccountPolicy,
  parseCsv,
  recomputedTotals,
  statementOf,
  type StatementSchema,
} from './support.js';

// brandau counts months in Australia/Sydney: UTC+11 in November and December.
const NOW = new Date('2026-11-22T00:00:00Z');
/** 23:30 on 30 November in Sydney: still November there. */
const LAST_HALF_HOUR = '2026-11-30T12:30:00.000Z';
/** Midnight starting 1 December in Sydney. */
const DECEMBER_FIRST = '2026-11-30T13:00:00.000Z';
/** Weeks after both months closed. */
const LATER = new Date('2027-02-10T00:00:00Z');
let now = NOW;
const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => now });

const deps = (t: TestApp) => ({ db: t.context.db, catalogue: catalogueReaderFor(t.context.db), clock: () => now });
/** Records partner A's payment under brandau as the CLI command does. */
const pay = (t: TestApp, amount: string, receivedOn: string, reference: string) =>
  recordPayment(deps(t), { partnerCode: 'PARTNERA', brandCode: 'brandau', amount, receivedOn, reference });

let keys = 0;

describe(`partner statements (${DIALECT})`, () => {
  let november: StatementSchema;
  const card: string[] = [];

  it('lists every transaction of the month, both methods, with totals per method and the on-account part', async () => {
    const t = getApp();
    now = NOW;
    // CARD through the API: a purchase, an amendment that costs more, and a policy cancelled in cooling-off.
    const kept = await boughtPolicy(t);
    const amended = await previewAmendment(t, kept.policyNumber, { ...kept.input, returnDate: '2026-12-30' });
    const amendment = amended.json<ChangeAnswer>();
    expect(amendment.validation.isValid, amended.body).toBe(true);
    const body = amendment.difference!.transactionAmount > 0 ? { cardToken: { token: CARDS.approved } } : {};
    expect(
      (await confirm(t, kept.policyNumber, 'amendments', amendment.id!, { key: `st-${++keys}`, body })).statusCode,
    ).toBe(200);
    const cancelled = await boughtPolicy(t);
    const cancellation = (
      await previewCancellation(t, cancelled.policyNumber, { reasonCode: 'CHANGE_OF_PLANS' })
    ).json<ChangeAnswer>();
    expect(
      (await confirm(t, cancelled.policyNumber, 'cancellations', cancellation.id!, { key: `st-${++keys}` })).statusCode,
    ).toBe(200);
    card.push(kept.policyNumber, cancelled.policyNumber);
    // Every card transaction as the policy's details tell it, in commit order.
    const expected = [];
    for (const policyNumber of card)
      for (const d of await details(t, policyNumber))
        expected.push({
          policyNumber,
          detail: d.policyDetailNumber,
          action: d.actionType,
          total: d.financialSummary.transactionAmount,
        });

    // ON_ACCOUNT: a purchase, its amendment and cancellation, and one at 23:30 on the month's last day.
    const first = await onAccountPolicy(t, '2026-11-23T01:00:00.000Z');
    await onAccountChange(t.context.db, first.policyNumber, 'Amendment', '2026-11-24T01:00:00.000Z', {
      premium: 5_000,
      taxes: [{ name: 'GST', amount: 500 }],
      fee: 1_000,
    });
    await onAccountChange(t.context.db, first.policyNumber, 'Cancellation', '2026-11-25T01:00:00.000Z', {
      premium: -20_000,
      taxes: [{ name: 'GST', amount: -2_000 }],
    });
    const late = await onAccountPolicy(t, LAST_HALF_HOUR);
    now = new Date('2026-11-30T12:45:00Z');
    await pay(t, '100.00', '2026-11-28', 'BANK-1');

    const open = await statementOf(t, '2026-11');
    expect(open.status).toBe('OPEN');
    expect(open.timeZone).toBe('Australia/Sydney');
    expect(open.from).toBe('2026-10-31T13:00:00.000Z');
    expect(open.to).toBe(DECEMBER_FIRST);

    const cardLines = open.transactions.filter((l) => l.paymentMethod === 'CARD');
    expect(
      cardLines.map((l) => ({
        policyNumber: l.policyNumber,
        detail: l.policyDetailNumber,
        action: l.action,
        total: l.total,
      })),
    ).toEqual(expected);
    expect(cardLines.map((l) => l.action)).toEqual(['Purchase', 'Amendment', 'Purchase', 'Cancellation']);

    const onAccount = open.transactions.filter((l) => l.paymentMethod === 'ON_ACCOUNT');
    expect(onAccount.map((l) => [l.policyNumber, l.action])).toEqual([
      [first.policyNumber, 'Purchase'],
      [first.policyNumber, 'Amendment'],
      [first.policyNumber, 'Cancellation'],
      [late.policyNumber, 'Purchase'],
    ]);
    // The fixture's purchase: 320 premium − 20 discount + 30 GST + 15 stamp duty + 2 donation.
    expect(onAccount[0]).toMatchObject({ premium: 320, discount: 20, donation: 2, fees: 0, total: 347 });
    expect(onAccount[0]!.taxes).toEqual([
      { name: 'GST', amount: 30 },
      { name: 'Stamp duty', amount: 15 },
    ]);
    expect(onAccount[1]).toMatchObject({ premium: 50, fees: 10, total: 65 });
    expect(onAccount[2]).toMatchObject({ premium: -200, total: -220 });
    expect(onAccount[3]!.committedAt).toBe(LAST_HALF_HOUR);

    const recomputed = recomputedTotals(open);
    for (const totals of open.totals) {
      const mine = recomputed[totals.paymentMethod]!;
      expect(totals.transactionCount).toBe(mine.count);
      expect(minor(totals.total)).toBe(mine.total);
      expect(minor(totals.total)).toBe(mine.parts);
      expect(minor(totals.premium)).toBe(mine.premium);
      expect(totals.taxes.reduce((s, x) => s + minor(x.amount), 0)).toBe(mine.taxes);
    }
    expect(open.onAccount).toEqual({
      balanceBroughtForward: 0,
      charged: 347 + 65 + 347,
      credited: 220,
      paymentsReceived: 100,
      due: 347 + 65 + 347 - 220 - 100,
      payments: [{ reference: 'BANK-1', amount: 100, receivedOn: '2026-11-28' }],
    });
    november = open;
  });

  it('keeps a closed month as it was; the next month starts from its balance', async () => {
    const t = getApp();
    // Midnight in Sydney: December's first transaction.
    now = new Date(DECEMBER_FIRST);
    const december = await onAccountPolicy(t, DECEMBER_FIRST);
    now = new Date('2026-12-05T00:00:00Z');
    await pay(t, '50', '2026-12-04', 'BANK-2');
    // A payment dated in the closed month is refused; the same reference again replays.
    await expect(pay(t, '10', '2026-11-29', 'BANK-3')).rejects.toMatchObject({
      code: 'INVALID_PAYMENT_RECEIVED',
      property: 'date',
    });
    const again = await pay(t, '50.00', '2026-12-04', 'BANK-2');
    expect(again.created).toBe(false);
    await expect(pay(t, '51', '2026-12-04', 'BANK-2')).rejects.toMatchObject({ code: 'PAYMENT_REFERENCE_CONFLICT' });

    const closed = await statementOf(t, '2026-11');
    expect(closed).toEqual({ ...november, status: 'CLOSED' });
    const next = await statementOf(t, '2026-12');
    expect(next.status).toBe('OPEN');
    expect(next.transactions.map((l) => [l.policyNumber, l.committedAt])).toEqual([
      [december.policyNumber, DECEMBER_FIRST],
    ]);
    expect(next.onAccount).toMatchObject({
      balanceBroughtForward: november.onAccount.due,
      charged: 347,
      paymentsReceived: 50,
    });
    expect(next.onAccount.due).toBe(november.onAccount.due + 347 - 50);

    now = LATER;
    expect(await statementOf(t, '2026-11')).toEqual({ ...november, status: 'CLOSED' });
    const list = await getStatements(t, '');
    expect(list.statusCode).toBe(200);
    expect(
      list.json<{ statements: { month: string; status: string }[] }>().statements.map((s) => [s.month, s.status]),
    ).toEqual([
      ['2026-12', 'CLOSED'],
      ['2026-11', 'CLOSED'],
    ]);
    // The current month answers even without activity, open.
    const empty = await statementOf(t, '2027-02');
    expect(empty).toMatchObject({
      status: 'OPEN',
      transactions: [],
      onAccount: { balanceBroughtForward: next.onAccount.due },
    });
  });

  it('answers CSV that parses back to the same transactions and totals', async () => {
    const t = getApp();
    now = LATER;
    const res = await getStatements(t, '/2026-11', { accept: 'text/csv' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="statement-brandau-2026-11.csv"');
    const [header, ...rows] = parseCsv(res.body);
    const at = (name: string) => header!.indexOf(name);
    const transactions = rows.filter((r) => r[0] === 'TRANSACTION');
    expect(
      transactions.map((r) => [r[at('policyDetailNumber')], r[at('paymentMethod')], Number(r[at('total')])]),
    ).toEqual(november.transactions.map((l) => [l.policyDetailNumber, l.paymentMethod, l.total]));
    for (const r of transactions) {
      const taxes = header!.filter((h) => h.startsWith('tax:')).reduce((s, h) => s + minor(Number(r[at(h)])), 0);
      const parts =
        minor(Number(r[at('premium')])) -
        minor(Number(r[at('discount')])) +
        taxes +
        minor(Number(r[at('donation')])) +
        minor(Number(r[at('fees')]));
      expect(parts).toBe(minor(Number(r[at('total')])));
    }
    const totals = rows.filter((r) => r[0] === 'TOTAL');
    expect(
      totals.map((r) => [r[at('paymentMethod')], Number(r[at('transactionCount')]), Number(r[at('total')])]),
    ).toEqual(november.totals.map((x) => [x.paymentMethod, x.transactionCount, x.total]));
    const due = rows.find((r) => r[0] === 'DUE');
    expect(Number(due![at('total')])).toBe(november.onAccount.due);
    expect(rows.find((r) => r[0] === 'PAYMENT_RECEIVED')![at('reference')]).toBe('BANK-1');
  });

  it('answers the tax invoice as a PDF naming the insurer, its tax number and the amount due', async () => {
    const t = getApp();
    now = LATER;
    const res = await getStatements(t, '/2026-11', { accept: 'application/pdf' });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const bytes = res.rawPayload;
    expect(isPdf(bytes)).toBe(true);
    const text = await pdfText(bytes);
    expect(text).toContain('Tax invoice');
    expect(text).toContain('Southern Cross Underwriting Ltd');
    expect(text).toContain('ABN 11 222 333 444');
    const due = amountTextIn('en', 'AUD', 2)(minor(november.onAccount.due));
    expect(text).toContain(`Amount due: ${due}`);
    for (const line of november.transactions.filter((l) => l.paymentMethod === 'ON_ACCOUNT'))
      expect(text).toContain(line.policyDetailNumber);
    for (const line of november.transactions.filter((l) => l.paymentMethod === 'CARD'))
      expect(text).not.toContain(line.policyDetailNumber);
  });

  it('shows another partner nothing of it', async () => {
    const t = getApp();
    now = LATER;
    const list = await getStatements(t, '', { partner: 'B' });
    expect(list.json()).toEqual({ statements: [] });
    const month = await getStatements(t, '/2026-11', { partner: 'B' });
    expect(month.statusCode).toBe(404);
    expect(month.json()).toMatchObject({
      validation: { errors: [{ code: 'STATEMENT_NOT_FOUND', property: 'month' }] },
    });
    const current = await statementOf(t, '2027-02', 'B');
    expect(current.transactions).toEqual([]);
    expect(current.onAccount.due).toBe(0);
    // Another brand of partner A: its own months only.
    expect((await getStatements(t, '', { brand: 'brandnz' })).json()).toEqual({ statements: [] });
  });

  it.each([
    ['/2026-13', 400, 'INVALID_STATEMENT_MONTH'],
    ['/november', 400, 'INVALID_STATEMENT_MONTH'],
    ['/2027-03', 400, 'STATEMENT_MONTH_IN_FUTURE'],
    ['/2026-10', 404, 'STATEMENT_NOT_FOUND'],
  ])('answers %s with %i %s', async (path, status, code) => {
    const t = getApp();
    now = LATER;
    for (const accept of [undefined, 'text/csv', 'application/pdf']) {
      const res = await getStatements(t, path, accept ? { accept } : {});
      expect(res.statusCode).toBe(status);
      expect(res.json()).toMatchObject({ validation: { isValid: false, errors: [{ code, property: 'month' }] } });
    }
  });
});
