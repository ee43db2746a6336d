import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { scaled } from '../helpers/time-scale.js';
import {
  boughtPolicy,
  CARDS,
  confirm,
  previewAmendment,
  previewCancellation,
  type ChangeAnswer,
} from '../policy-changes/support.js';
import {
  getStatements,
  minor,
  onAccountChange,
  onAccountPolicy,
  recomputedTotals,
  type StatementSchema,
} from './support.js';

const NOW = new Date('2026-11-22T00:00:00Z');
/** After every month the runs write to has closed. */
const LATER = new Date('2027-01-15T00:00:00Z');
let now = NOW;
const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => now });

/** An on-account transaction's committed time: any instant of October and November 2026 before NOW. */
const accountTime = fc
  .integer({ min: Date.parse('2026-10-01T00:00:00Z'), max: NOW.getTime() - 1 })
  .map((ms) => new Date(ms).toISOString());

const step = fc.oneof(
  fc.constant({ kind: 'card-purchase' as const }),
  fc.record({ kind: fc.constant('card-amend' as const), days: fc.integer({ min: 6, max: 40 }) }),
  fc.constant({ kind: 'card-cancel' as const }),
  fc.record({ kind: fc.constant('account-purchase' as const), at: accountTime }),
  fc.record({
    kind: fc.constant('account-amend' as const),
    at: accountTime,
    premium: fc.integer({ min: -10_000, max: 10_000 }),
    fee: fc.integer({ min: 0, max: 2_000 }),
  }),
  fc.record({ kind: fc.constant('account-cancel' as const), at: accountTime }),
);

/** The day `days` after the demo trip's departure (10 December 2026). */
const returnDateAfter = (days: number) => new Date(Date.UTC(2026, 11, 10 + days - 1)).toISOString().slice(0, 10);

let keys = 0;

interface Live {
  readonly policyNumber: string;
  readonly input?: Record<string, unknown>;
}

async function runStep(t: TestApp, s: StepValue, card: Live[], account: Live[]) {
  now = NOW;
  if (s.kind === 'card-purchase') {
    const { policyNumber, input } = await boughtPolicy(t);
    card.push({ policyNumber, input });
  } else if (s.kind === 'card-amend') {
    const policy = card.at(-1);
    if (!policy) return;
    const res = await previewAmendment(t, policy.policyNumber, {
      ...policy.input,
      returnDate: returnDateAfter(s.days),
    });
    const preview = res.json<ChangeAnswer>();
    if (!preview.validation.isValid) return;
    const body = preview.difference!.transactionAmount > 0 ? { cardToken: { token: CARDS.approved } } : {};
    const done = await confirm(t, policy.policyNumber, 'amendments', preview.id!, { key: `prop-${++keys}`, body });
    expect(done.statusCode, done.body).toBe(200);
  } else if (s.kind === 'card-cancel') {
    const policy = card.pop();
    if (!policy) return;
    const res = await previewCancellation(t, policy.policyNumber, { reasonCode: 'CHANGE_OF_PLANS' });
    const preview = res.json<ChangeAnswer>();
    expect(preview.validation.isValid, res.body).toBe(true);
    const done = await confirm(t, policy.policyNumber, 'cancellations', preview.id!, { key: `prop-${++keys}` });
    expect(done.statusCode, done.body).toBe(200);
  } else if (s.kind === 'account-purchase') {
    const issued = await onAccountPolicy(t, s.at);
    account.push({ policyNumber: issued.policyNumber });
  } else if (s.kind === 'account-amend') {
    const policy = account.at(-1);
    if (!policy) return;
    const tax = Math.trunc(s.premium / 10);
    await onAccountChange(t.context.db, policy.policyNumber, 'Amendment', s.at, {
      premium: s.premium,
      taxes: [{ name: 'GST', amount: tax }],
      fee: s.fee,
    });
  } else {
    const policy = account.pop();
    if (!policy) return;
    await onAccountChange(t.context.db, policy.policyNumber, 'Cancellation', s.at, {
      premium: -30_000,
      taxes: [{ name: 'GST', amount: -3_000 }],
    });
  }
}
type StepValue = typeof step extends fc.Arbitrary<infer V> ? V : never;

/** Every statement of partner A under brandau, oldest first, read once every month has closed. */
async function allStatements(t: TestApp): Promise<StatementSchema[]> {
  now = LATER;
  const list = await getStatements(t, '');
  expect(list.statusCode, list.body).toBe(200);
  const months = list
    .json<{ statements: { month: string }[] }>()
    .statements.map((s) => s.month)
    .reverse();
  const statements: StatementSchema[] = [];
  for (const month of months) {
    const res = await getStatements(t, `/${month}`);
    expect(res.statusCode, res.body).toBe(200);
    statements.push(res.json<StatementSchema>());
  }
  now = NOW;
  return statements;
}

describe(`statements: totals and the gateway's books (${DIALECT})`, () => {
  it(
    'each statement totals its transactions; card money in all statements = captured − refunded',
    async () => {
      const t = getApp();
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 4 }), async (steps) => {
          const card: Live[] = [];
          const account: Live[] = [];
          for (const s of steps) await runStep(t, s, card, account);

          const statements = await allStatements(t);
          let cardMoney = 0;
          let accountMoney = 0;
          let due = 0;
          for (const statement of statements) {
            const recomputed = recomputedTotals(statement);
            for (const totals of statement.totals) {
              const mine = recomputed[totals.paymentMethod]!;
              expect(totals.transactionCount).toBe(mine.count);
              expect(minor(totals.total)).toBe(mine.total);
              expect(minor(totals.total)).toBe(mine.parts);
            }
            cardMoney += minor(statement.totals.find((x) => x.paymentMethod === 'CARD')!.total);
            accountMoney += minor(statement.totals.find((x) => x.paymentMethod === 'ON_ACCOUNT')!.total);
            // Each month starts where the one before ended.
            expect(minor(statement.onAccount.balanceBroughtForward)).toBe(due);
            due = minor(statement.onAccount.due);
          }
          expect(due).toBe(accountMoney);
          const books = await t.context.db
            .selectFrom('sandbox_payment')
            .select(['captured_minor', 'refunded_minor'])
            .execute();
          expect(cardMoney).toBe(books.reduce((sum, p) => sum + p.captured_minor - p.refunded_minor, 0));
        }),
        { numRuns: 6 },
      );
    },
    scaled(120_000),
  );
});
