import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../helpers/app.js';
import { CutSchedule, normalised, retriedThroughCuts } from '../helpers/connection-cut.js';
import { DIALECT } from '../helpers/database.js';
import { scaled } from '../helpers/time-scale.js';
import {
  answerChallenge,
  boughtPolicy,
  CARDS,
  confirm,
  details,
  minor,
  moneyOf,
  NOW,
  previewAmendment,
  previewCancellation,
  type ChangeAnswer,
  type ConfirmAnswer,
} from './support.js';

/**
 * "Hardening II", item 11, as a property: whichever steps of an amendment's confirmation (a charge,
 * its 3-D Secure continuation, a refund, nothing to pay) or of a cancellation's a connection cut
 * ends (the first request, and its retries too), the retry with the same Idempotency-Key answers
 * what the confirmation answers uncut (status and body: transaction, payment, state), money moves
 * once, and another request under the key is refused (422). Cuts are in process at the money
 * flow's crash points (test/helpers/connection-cut.ts says why that is a cut); kill -9 at those
 * steps: test/process/retry-outcome-crashes.test.ts.
 */
const cuts = new CutSchedule();
const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW, crashHook: cuts.hook });

type Operation = 'charge' | 'continuation' | 'refund' | 'nothing to pay' | 'cancellation';
/** The crash points each confirmation passes, in order. */
const STEPS: Record<Operation, readonly string[]> = {
  charge: ['hold', 'authorise', 'apply', 'capture', 'captured'],
  continuation: ['continue', 'authorise', 'apply', 'capture', 'captured'],
  refund: ['hold', 'refund-line', 'refund', 'settle'],
  'nothing to pay': ['settle'],
  cancellation: ['hold', 'refund-line', 'refund', 'settle'],
};
const OPERATIONS = Object.keys(STEPS) as Operation[];
/** The demo trip returns on 23 December: later costs more, earlier refunds. */
const RETURN_DATE: Partial<Record<Operation, string>> = {
  charge: '2026-12-30',
  continuation: '2026-12-30',
  refund: '2026-12-17',
};

let runs = 0;

interface Prepared {
  readonly policyNumber: string;
  readonly kind: 'amendments' | 'cancellations';
  readonly changeId: string;
  readonly body: Record<string, unknown>;
  /** The same confirmation with another body. */
  readonly other: Record<string, unknown>;
}

/** A bought policy, the change's preview and its confirmation's body (a continuation: after its challenge was approved). */
async function prepared(t: TestApp, operation: Operation, key: string): Promise<Prepared> {
  const { policyNumber, input } = await boughtPolicy(t);
  const preview =
    operation === 'cancellation'
      ? await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' })
      : await previewAmendment(t, policyNumber, { ...input, returnDate: RETURN_DATE[operation] ?? input.returnDate });
  expect(preview.statusCode, preview.body).toBe(200);
  const changeId = preview.json<ChangeAnswer>().id ?? '';
  const kind = operation === 'cancellation' ? 'cancellations' : 'amendments';
  const card = (token: string) => ({ cardToken: { token } });
  const base = { policyNumber, kind, changeId } as const;
  if (operation === 'cancellation') return { ...base, body: {}, other: { clientInfo: { ipAddress: '192.0.2.1' } } };
  if (operation !== 'continuation')
    return { ...base, body: operation === 'charge' ? card(CARDS.approved) : {}, other: card(CARDS.declined) };
  const challenged = await confirm(t, policyNumber, kind, changeId, {
    key: `${key}-start`,
    body: card(CARDS.threeDsChallenge),
  });
  expect(challenged.statusCode, challenged.body).toBe(200);
  const url = challenged.json<ConfirmAnswer>().threeDSResponseInfo?.threeDSResponse ?? '';
  await answerChallenge(t, url, 'approve');
  const threeDSRequestInfo = { threeDSStatus: 'CHALLENGE_COMPLETED', threeDSRequest: url };
  return { ...base, body: { threeDSRequestInfo }, other: card(CARDS.approved) };
}

const answered = (body: string, policyNumber: string) => normalised(body, policyNumber);

/** What each confirmation answers when nothing is cut, its run's ids named (computed once). */
const references = new Map<Operation, Promise<unknown>>();
function referenceOf(t: TestApp, operation: Operation): Promise<unknown> {
  const known = references.get(operation);
  if (known) return known;
  const computed = (async () => {
    const key = `reference-${operation}`;
    const { policyNumber, kind, changeId, body } = await prepared(t, operation, key);
    const res = await confirm(t, policyNumber, kind, changeId, { key, body });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ConfirmAnswer>().policy.sequenceNumber, res.body).toBe(2);
    return answered(res.body, policyNumber);
  })();
  references.set(operation, computed);
  return computed;
}

const cutRuns = fc.constantFrom(...OPERATIONS).chain((operation) =>
  fc.record({
    operation: fc.constant(operation),
    cuts: fc.array(fc.constantFrom(...STEPS[operation]), { minLength: 1, maxLength: 3 }),
  }),
);
/** Every step of every confirmation, cut once, besides the random runs. */
const EVERY_STEP = OPERATIONS.flatMap((operation) =>
  STEPS[operation].map((step) => [{ operation, cuts: [step] }] as [{ operation: Operation; cuts: string[] }]),
);

describe(`a retry gets its own outcome: policy changes cut at every step (${DIALECT})`, () => {
  it(
    'the retry with the same key answers the uncut answer, money moves once, another request under the key is refused',
    async () => {
      const t = getApp();
      await fc.assert(
        fc.asyncProperty(cutRuns, async (run) => {
          const reference = await referenceOf(t, run.operation);
          const key = `cut-${++runs}`;
          const { policyNumber, kind, changeId, body, other } = await prepared(t, run.operation, key);
          const send = (payload: Record<string, unknown>) =>
            confirm(t, policyNumber, kind, changeId, { key, body: payload });
          cuts.arm(run.cuts);
          try {
            const first = await send(body);
            expect(first.statusCode, first.body).toBe(503);
            // From its hold on, the key is this confirmation's: another request under it is refused.
            const refused = await send(other);
            expect(refused.statusCode, refused.body).toBe(422);
            expect(refused.json<ConfirmAnswer>().validation.errors[0]?.code).toBe('IDEMPOTENCY_KEY_REUSED');
            const { answer } = await retriedThroughCuts(run.cuts.length - 1, () => send(body));
            expect(answer.statusCode, answer.body).toBe(200);
            expect(answered(answer.body, policyNumber)).toEqual(reference);
            const replay = await send(body);
            expect(replay.headers['idempotent-replayed']).toBe('true');
            expect(replay.body).toBe(answer.body);
          } finally {
            cuts.disarm();
          }
          // Money moved once: two transactions, and the sandbox's books add up to them.
          const transactions = await details(t, policyNumber);
          expect(transactions).toHaveLength(2);
          const booked = transactions.reduce((sum, d) => sum + minor(d.financialSummary.transactionAmount), 0);
          const money = await moneyOf(t, policyNumber);
          expect(money.captured - money.refunded).toBe(booked);
          for (const payment of money.payments) expect(payment.refunded).toBeLessThanOrEqual(payment.captured);
        }),
        // The examples count towards numRuns: every step once, then random runs of up to three cuts.
        { numRuns: EVERY_STEP.length + 8, examples: EVERY_STEP },
      );
    },
    scaled(180_000),
  );
});
