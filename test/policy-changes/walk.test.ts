import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import {
  boughtPolicy,
  CARDS,
  confirm,
  details,
  NOW,
  previewAmendment,
  previewCancellation,
  type ChangeAnswer,
  type ConfirmAnswer,
} from './support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

describe(`policy changes: a walk through a policy's life (${DIALECT})`, () => {
  it('amendment that costs more, one that refunds, then a cancellation inside cooling-off', async () => {
    const t = getApp();
    const { policyNumber, input } = await boughtPolicy(t);

    const longer = await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-30' });
    expect(longer.statusCode, longer.body).toBe(200);
    const more = longer.json<ChangeAnswer>();
    expect(more.validation, JSON.stringify(more.validation)).toEqual({ isValid: true, errors: [] });
    expect(more.status).toBe('PREVIEW');
    expect(more.sequenceNumber).toBe(2);
    expect(more.difference!.transactionAmount).toBeGreaterThan(0);

    const paid = await confirm(t, policyNumber, 'amendments', more.id!, {
      key: 'amend-1',
      body: { cardToken: { token: CARDS.approved } },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const paidBody = paid.json<ConfirmAnswer>();
    expect(paidBody.validation.isValid).toBe(true);
    expect(paidBody.paymentResult).toBe('APPROVED');
    expect(paidBody.policy).toMatchObject({ sequenceNumber: 2, policyActionType: 'Amendment', policyStatus: 'Active' });

    const shorter = (
      await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-20' })
    ).json<ChangeAnswer>();
    expect(shorter.validation.isValid).toBe(true);
    expect(shorter.difference!.transactionAmount).toBeLessThan(0);
    const refunded = (
      await confirm(t, policyNumber, 'amendments', shorter.id!, { key: 'amend-2' })
    ).json<ConfirmAnswer>();
    expect(refunded.validation.isValid, JSON.stringify(refunded.validation)).toBe(true);
    expect(refunded.policy.sequenceNumber).toBe(3);

    const cancel = (await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' })).json<ChangeAnswer>();
    expect(cancel.refundBasis).toBe('COOLING_OFF');
    const cancelled = (
      await confirm(t, policyNumber, 'cancellations', cancel.id!, { key: 'cancel-1' })
    ).json<ConfirmAnswer>();
    expect(cancelled.validation.isValid, JSON.stringify(cancelled.validation)).toBe(true);
    expect(cancelled.policy).toMatchObject({
      sequenceNumber: 4,
      policyStatus: 'Cancelled',
      policyActionType: 'Cancellation',
    });
    expect(cancelled.policy.transactionValueAggregateAmount.amount).toBe(0);

    const all = await details(t, policyNumber);
    expect(all.map((d) => d.policyDetailNumber)).toEqual([1, 2, 3, 4].map((n) => `${policyNumber}-${n}`));
    expect(all.map((d) => d.actionType)).toEqual(['Purchase', 'Amendment', 'Amendment', 'Cancellation']);
  });
});
