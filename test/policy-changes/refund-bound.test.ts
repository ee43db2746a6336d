import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { scaled } from '../helpers/time-scale.js';
import { eventsOfPolicy, publishEvents } from '../events/support.js';
import {
  after,
  BOUND_ENV,
  BOUND_SECONDS,
  cancelAfterAmendment,
  expectBooksHold,
  sweepAt,
} from './refund-bound-support.js';
import {
  boughtPolicy,
  call,
  CARDS,
  confirm,
  NOW,
  previewCancellation,
  summary,
  type ChangeAnswer,
  type ConfirmAnswer,
} from './support.js';

/**
 * Issue 35, item 1: a refund that meets a gateway outage is retried by recovery until its bound
 * (POLICY_CHANGE_REFUND_RETRY_SECONDS), then ends where a person sees it. The purchase is paid with
 * `tok_sandbox_refund_gateway_error` (its refunds always meet an outage), an amendment with an
 * approved card: a cancellation's refund goes back to both, the amendment's payment first.
 */
const getApp = useTestApp({ env: BOUND_ENV, clock: () => NOW });

type Notified = ChangeAnswer & {
  declineReason?: string;
  validation: { errors: { code: string; tokens?: Record<string, string> }[] };
};
const cancellationPath = (policyNumber: string, id: string) =>
  `/policies/v1/brandau/policies/${policyNumber}/cancellations/${id}`;

describe(`a refund stuck on a lasting gateway outage (${DIALECT})`, () => {
  it(
    'part refunded: retried until the bound, then that part booked (transaction, payment.refunded) and the change in ATTENTION; the books hold at every step',
    async () => {
      const t = getApp();
      const { policyNumber, cancellationId, refundMinor, amendmentMinor, confirmed } = await cancelAfterAmendment(
        t,
        CARDS.refundGatewayError,
        'bound-part',
      );
      // After the confirm: the amendment's payment went back, the purchase's met the outage.
      const answer = confirmed.json<ConfirmAnswer>();
      expect(answer.cancellation?.status).toBe('IN_PROGRESS');
      expect(answer.policy.policyStatus).toBe('Active');
      let books = await expectBooksHold(t, policyNumber, amendmentMinor);
      expect(books.refundedMinor).toBe(amendmentMinor);
      expect(books.transactions).toHaveLength(2);

      // Sweeps before the bound: asked again (same keys), the line already paid is not; nothing ends.
      for (const seconds of [60, BOUND_SECONDS / 2, BOUND_SECONDS - 1]) {
        const report = await sweepAt(t, after(seconds));
        expect(report.examined).toEqual({ REFUNDING: 1 });
        expect(report.outcomes).toEqual({ REFUNDING: 1 });
        books = await expectBooksHold(t, policyNumber, amendmentMinor);
        expect(books.refundedMinor).toBe(amendmentMinor);
      }
      expect((await eventsOfPolicy(t, policyNumber)).map((e) => e.type)).not.toContain('payment.refunded');

      // Past the bound: the part that went through is the cancellation's transaction.
      const ended = await sweepAt(t, after(BOUND_SECONDS + 1));
      expect(ended.outcomes).toEqual({ ATTENTION: 1 });
      books = await expectBooksHold(t, policyNumber);
      expect(books.transactions.map((d) => d.actionType)).toEqual(['Purchase', 'Amendment', 'Cancellation']);
      expect(books.transactions[2]!.financialSummary.transactionAmount).toBeCloseTo(-amendmentMinor / 100, 2);
      expect((await summary(t, policyNumber)).policyStatus).toBe('Cancelled');
      // Nothing more happens: ATTENTION is an operator's.
      expect((await sweepAt(t, after(2 * BOUND_SECONDS))).examined).toEqual({});
      await expectBooksHold(t, policyNumber);

      // The partner's view: the change read by id, and its events.
      const read = await call(t, 'GET', cancellationPath(policyNumber, cancellationId));
      expect(read.statusCode, read.body).toBe(200);
      const change = read.json<Notified>();
      expect(change.status).toBe('APPLIED');
      expect(change.sequenceNumber).toBe(3);
      expect(change.declineReason).toBe('REFUND_GATEWAY_UNAVAILABLE');
      expect(change.validation.isValid).toBe(false);
      expect(change.validation.errors).toEqual([
        expect.objectContaining({
          code: 'REFUND_INCOMPLETE',
          tokens: {
            reason: 'REFUND_GATEWAY_UNAVAILABLE',
            refundedAmount: String(amendmentMinor / 100),
            outstandingAmount: String((refundMinor - amendmentMinor) / 100),
          },
        }),
      ]);
      // The events were recorded at the sweep's time: published by a worker at a later time.
      await publishEvents({ ...t, context: { ...t.context, clock: () => after(2 * BOUND_SECONDS) } });
      const events = await eventsOfPolicy(t, policyNumber);
      expect(events.map((e) => e.type).slice(-2)).toEqual(['policy.cancelled', 'payment.refunded']);
      const [cancelled, refunded] = events.slice(-2);
      expect(cancelled!.data.amounts).toMatchObject({ transactionAmount: -amendmentMinor / 100 });
      expect(refunded!.data).toMatchObject({
        sequenceNumber: 3,
        amount: amendmentMinor / 100,
        outstandingAmount: (refundMinor - amendmentMinor) / 100,
      });
      expect(refunded!.data.refunds).toHaveLength(1);

      // A retry with the confirm's key replays its answer; the change's state is read with GET.
      const retried = await confirm(t, policyNumber, 'cancellations', cancellationId, { key: 'bound-part' });
      expect(retried.headers['idempotent-replayed']).toBe('true');
      expect(retried.body).toBe(confirmed.body);
      await expectBooksHold(t, policyNumber);
    },
    scaled(60_000),
  );

  it(
    'nothing refunded when the bound passes: FAILED (REFUND_GATEWAY_UNAVAILABLE), nothing changed, the policy free again',
    async () => {
      const t = getApp();
      const { policyNumber } = await boughtPolicy(t, { card: CARDS.refundGatewayError });
      const preview = (
        await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' })
      ).json<ChangeAnswer>();
      const confirmed = await confirm(t, policyNumber, 'cancellations', preview.id!, { key: 'bound-none' });
      expect(confirmed.json<ConfirmAnswer>().cancellation?.status).toBe('IN_PROGRESS');
      await expectBooksHold(t, policyNumber);
      expect((await sweepAt(t, after(BOUND_SECONDS - 1))).outcomes).toEqual({ REFUNDING: 1 });
      expect((await sweepAt(t, after(BOUND_SECONDS))).outcomes).toEqual({ REFUND_DECLINED: 1 });
      const books = await expectBooksHold(t, policyNumber);
      expect(books.transactions).toHaveLength(1);
      expect(books.refundedMinor).toBe(0);
      const change = (await call(t, 'GET', cancellationPath(policyNumber, preview.id!))).json<Notified>();
      expect(change.status).toBe('FAILED');
      expect(change.validation.errors).toEqual([
        expect.objectContaining({ code: 'REFUND_DECLINED', tokens: { reason: 'REFUND_GATEWAY_UNAVAILABLE' } }),
      ]);
      expect((await eventsOfPolicy(t, policyNumber)).map((e) => e.type)).not.toContain('payment.refunded');
      // The policy is free: a new preview may be confirmed (its refund meets the outage again).
      const again = (await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' })).json<ChangeAnswer>();
      const next = await confirm(t, policyNumber, 'cancellations', again.id!, { key: 'bound-none-again' });
      expect(next.statusCode, next.body).toBe(200);
    },
    scaled(60_000),
  );

  it(
    'a final refusal after part of the refund went through books that part at once (it recorded nothing before)',
    async () => {
      const t = getApp();
      const { policyNumber, cancellationId, refundMinor, amendmentMinor, confirmed } = await cancelAfterAmendment(
        t,
        CARDS.refundDeclined,
        'refused-part',
      );
      const answer = confirmed.json<ConfirmAnswer & { cancellation: Notified }>();
      expect(answer.cancellation.status).toBe('APPLIED');
      expect(answer.cancellation.declineReason).toBe('REFUND_DECLINED');
      expect(answer.policy.policyStatus).toBe('Cancelled');
      expect(answer.refunds).toHaveLength(1);
      expect(answer.validation.errors).toEqual([
        expect.objectContaining({
          code: 'REFUND_INCOMPLETE',
          tokens: expect.objectContaining({
            refundedAmount: String(amendmentMinor / 100),
            outstandingAmount: String((refundMinor - amendmentMinor) / 100),
          }) as unknown,
        }),
      ]);
      await expectBooksHold(t, policyNumber);
      const read = (await call(t, 'GET', cancellationPath(policyNumber, cancellationId))).json<Notified>();
      expect(read.status).toBe('APPLIED');
      expect((await eventsOfPolicy(t, policyNumber)).map((e) => e.type)).toContain('payment.refunded');
    },
    scaled(60_000),
  );
});
