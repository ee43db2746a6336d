import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../helpers/app.js';
import { CutSchedule, normalised, retriedThroughCuts } from '../helpers/connection-cut.js';
import { DIALECT } from '../helpers/database.js';
import { scaled } from '../helpers/time-scale.js';
import {
  answerChallenge,
  books,
  CARDS,
  NOW,
  purchase,
  purchaseBody,
  readyQuote,
  type PurchaseAnswer,
} from './support.js';

/**
 * "Hardening II", item 11, as a property: whichever steps of a purchase or of its 3-D Secure
 * continuation a connection cut ends (the first request, and its retries too), the retry with the
 * same Idempotency-Key answers what the operation answers uncut (status and body: policy number,
 * payment, state), money moves once, and another request under the key is refused (422).
 * Cuts are in process at the money flow's crash points (test/helpers/connection-cut.ts says why
 * that is a cut); kill -9 at those steps: test/process/retry-outcome-crashes.test.ts.
 */
const cuts = new CutSchedule();
const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW, crashHook: cuts.hook });

type Operation = 'purchase' | 'continuation';
/** The crash points each operation's request passes, in order. */
const STEPS: Record<Operation, readonly string[]> = {
  purchase: ['start', 'authorise', 'issue', 'capture', 'captured'],
  continuation: ['continue', 'authorise', 'issue', 'capture', 'captured'],
};
const OPERATIONS = Object.keys(STEPS) as Operation[];

let runs = 0;

/** A ready quote and the request of the operation on it (a continuation: after its challenge was approved). */
async function prepared(t: TestApp, operation: Operation, key: string) {
  const quote = await readyQuote(t);
  if (operation === 'purchase') return { quote, body: purchaseBody(quote, CARDS.approved) };
  const challenged = await purchase(t, purchaseBody(quote, CARDS.threeDsChallenge), { key: `${key}-start` });
  expect(challenged.statusCode, challenged.body).toBe(200);
  const url = challenged.json<PurchaseAnswer>().threeDSResponseInfo?.threeDSResponse ?? '';
  await answerChallenge(t, url, 'approve');
  const threeDSRequestInfo = { threeDSStatus: 'CHALLENGE_COMPLETED', threeDSRequest: url };
  return { quote, body: purchaseBody(quote, CARDS.threeDsChallenge, { threeDSRequestInfo }) };
}

const answered = (body: string) => normalised(body, JSON.parse(body).quote?.policyNumber as string | undefined);

/** What each operation answers when nothing is cut, its run's ids named (computed once). */
const references = new Map<Operation, Promise<unknown>>();
function referenceOf(t: TestApp, operation: Operation): Promise<unknown> {
  const known = references.get(operation);
  if (known) return known;
  const computed = (async () => {
    const key = `reference-${operation}`;
    const { body } = await prepared(t, operation, key);
    const res = await purchase(t, body, { key });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<PurchaseAnswer>().quote.isPurchased).toBe(true);
    return answered(res.body);
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
/** Every step of every operation, cut once, besides the random runs. */
const EVERY_STEP = OPERATIONS.flatMap((operation) =>
  STEPS[operation].map((step) => [{ operation, cuts: [step] }] as [{ operation: Operation; cuts: string[] }]),
);

describe(`a retry gets its own outcome: purchases cut at every step (${DIALECT})`, () => {
  it(
    'the retry with the same key answers the uncut answer, money moves once, another request under the key is refused',
    async () => {
      const t = getApp();
      await fc.assert(
        fc.asyncProperty(cutRuns, async (run) => {
          const reference = await referenceOf(t, run.operation);
          const key = `cut-${run.operation}-${++runs}`;
          const { quote, body } = await prepared(t, run.operation, key);
          cuts.arm(run.cuts);
          try {
            const first = await purchase(t, body, { key });
            expect(first.statusCode, first.body).toBe(503);
            // From its first commit on, the key is this operation's: another request under it is refused.
            const other = await purchase(t, { ...body, cardToken: { token: CARDS.declined } }, { key });
            expect(other.statusCode, other.body).toBe(422);
            expect(other.json<PurchaseAnswer>().validation.errors[0]?.code).toBe('IDEMPOTENCY_KEY_REUSED');
            const { answer } = await retriedThroughCuts(run.cuts.length - 1, () => purchase(t, body, { key }));
            expect(answer.statusCode, answer.body).toBe(200);
            expect(answered(answer.body)).toEqual(reference);
            const replay = await purchase(t, body, { key });
            expect(replay.headers['idempotent-replayed']).toBe('true');
            expect(replay.body).toBe(answer.body);
          } finally {
            cuts.disarm();
          }
          expect(await books(t, quote.id)).toMatchObject({
            policies: 1,
            captures: 1,
            capturedMinor: Math.round(quote.totalPrice * 100),
          });
        }),
        // The examples count towards numRuns: every step once, then random runs of up to three cuts.
        { numRuns: EVERY_STEP.length + 8, examples: EVERY_STEP },
      );
    },
    scaled(120_000),
  );
});
