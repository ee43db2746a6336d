import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
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
  summary,
  type ChangeAnswer,
  type ConfirmAnswer,
} from './support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

describe(`policy changes: amendments paid with 3-D Secure and declined cards (${DIALECT})`, () => {
  it('challenge, frictionless, declined then approved: one transaction each, books and summary agree', async () => {
    const t = getApp();
    const { policyNumber, input } = await boughtPolicy(t);
    const amend = async (returnDate: string) => {
      const res = await previewAmendment(t, policyNumber, { ...input, returnDate });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<ChangeAnswer>();
      expect(body.validation, JSON.stringify(body.validation)).toEqual({ isValid: true, errors: [] });
      expect(body.difference!.transactionAmount).toBeGreaterThan(0);
      return body;
    };

    // 1. Challenge: nothing applied until the cardholder approves and the partner confirms again.
    const longer = await amend('2026-12-27');
    const first = await confirm(t, policyNumber, 'amendments', longer.id!, {
      key: '3ds-1',
      body: { cardToken: { token: CARDS.threeDsChallenge } },
    });
    expect(first.statusCode, first.body).toBe(200);
    const challenged = first.json<ConfirmAnswer>();
    expect(challenged.paymentResult).toBe('THREEDS_CHALLENGE_REQUIRED');
    expect(challenged.threeDSResponseInfo?.threeDSStatus).toBe('CHALLENGE_REQUIRED');
    expect(challenged.policy.sequenceNumber).toBe(1);
    const url = challenged.threeDSResponseInfo!.threeDSResponse!;
    expect(url).toMatch(/\/sandbox\/3ds\/sbx_3ds_/);
    await answerChallenge(t, url, 'approve');
    const continuation = { threeDSRequestInfo: { threeDSStatus: 'CHALLENGE_COMPLETED', threeDSRequest: url } };

    // The continuation is a new request: the first key, sent with the new body, is refused (422).
    const sameKey = await confirm(t, policyNumber, 'amendments', longer.id!, { key: '3ds-1', body: continuation });
    expect(sameKey.statusCode, sameKey.body).toBe(422);
    expect(sameKey.json<ConfirmAnswer>().validation.errors[0]?.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const done = await confirm(t, policyNumber, 'amendments', longer.id!, { key: '3ds-2', body: continuation });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<ConfirmAnswer>()).toMatchObject({
      paymentResult: 'APPROVED',
      paymentIds: challenged.paymentIds,
      threeDSResponseInfo: { threeDSStatus: 'CHALLENGE_COMPLETED' },
      policy: { sequenceNumber: 2, policyActionType: 'Amendment', policyStatus: 'Active' },
      validation: { isValid: true },
    });
    // Replaying the continuation answers the same, and charges nothing more.
    const before = await moneyOf(t, policyNumber);
    const again = await confirm(t, policyNumber, 'amendments', longer.id!, { key: '3ds-2', body: continuation });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(done.json());
    expect(await moneyOf(t, policyNumber)).toEqual(before);

    // 2. Frictionless: approved at once.
    const frictionless = await amend('2027-01-02');
    const smooth = await confirm(t, policyNumber, 'amendments', frictionless.id!, {
      key: '3ds-3',
      body: { cardToken: { token: CARDS.threeDsFrictionless } },
    });
    expect(smooth.statusCode, smooth.body).toBe(200);
    expect(smooth.json<ConfirmAnswer>()).toMatchObject({
      paymentResult: 'APPROVED',
      policy: { sequenceNumber: 3 },
      validation: { isValid: true },
    });

    // 3. Declined: a business outcome (200), the preview stays confirmable with another card.
    const later = await amend('2027-01-15');
    const declined = await confirm(t, policyNumber, 'amendments', later.id!, {
      key: '3ds-4',
      body: { cardToken: { token: CARDS.declined } },
    });
    expect(declined.statusCode, declined.body).toBe(200);
    const declinedBody = declined.json<ConfirmAnswer>();
    expect(declinedBody.validation.isValid).toBe(false);
    expect(declinedBody.validation.errors.map((e) => e.code)).toContain('PAYMENT_DECLINED');
    expect(declinedBody.policy.sequenceNumber).toBe(3);
    const approved = await confirm(t, policyNumber, 'amendments', later.id!, {
      key: '3ds-5',
      body: { cardToken: { token: CARDS.approved } },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<ConfirmAnswer>()).toMatchObject({
      paymentResult: 'APPROVED',
      policy: { sequenceNumber: 4 },
      validation: { isValid: true },
    });

    // The policy's record: one detail per transaction, numbered 1..n; the summary follows the last.
    const all = await details(t, policyNumber);
    expect(all.map((d) => d.policyDetailNumber)).toEqual([1, 2, 3, 4].map((n) => `${policyNumber}-${n}`));
    expect(all.map((d) => d.actionType)).toEqual(['Purchase', 'Amendment', 'Amendment', 'Amendment']);
    const money = await moneyOf(t, policyNumber);
    const paid = all.reduce((sum, d) => sum + minor(d.financialSummary.transactionAmount), 0);
    expect(money.captured - money.refunded).toBe(paid);
    expect(money.payments.filter((p) => p.captured > 0)).toHaveLength(4);
    const now = await summary(t, policyNumber);
    expect(now).toMatchObject({ sequenceNumber: 4, policyActionType: 'Amendment', policyStatus: 'Active' });
    expect(minor(now.transactionValueAggregateAmount.amount)).toBe(money.captured - money.refunded);
  });
});
