import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CaptureRequest, SettlementOutcome } from '../../src/payments/gateway.js';
import { capture } from '../../src/payments/sandbox/issuer.js';
import type { SandboxPaymentRow } from '../../src/payments/sandbox/repository.js';
import { DIALECT } from '../helpers/database.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';

/** The capture as it was written before it became one conditional update: read, check, update. */
function referenceCapture(
  row: SandboxPaymentRow | undefined,
  request: CaptureRequest,
): { outcome: SettlementOutcome; capturedMinor?: number } {
  const rejected = (paymentId: string, code: string, message: string) => ({
    outcome: { outcome: 'rejected' as const, paymentId, code, message },
  });
  if (!row) return rejected(request.paymentId, 'PAYMENT_NOT_FOUND', 'No such payment.');
  if (row.status !== 'authorised')
    return rejected(row.payment_id, 'NOT_AUTHORISED', `The payment is ${row.status}, not authorised.`);
  if (request.amount.currency !== row.currency)
    return rejected(row.payment_id, 'CURRENCY_MISMATCH', `The payment is in ${row.currency}.`);
  const left = row.amount_minor - row.captured_minor;
  if (request.amount.amountMinor > left)
    return rejected(row.payment_id, 'AMOUNT_EXCEEDS_AUTHORISED', `At most ${left} can be captured.`);
  return {
    outcome: { outcome: 'captured', paymentId: row.payment_id, amount: request.amount },
    capturedMinor: row.captured_minor + request.amount.amountMinor,
  };
}

describe(`sandbox capture (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();
  const created = '2026-11-23T00:00:00.000Z';
  const now = new Date('2026-11-23T01:00:00.000Z');
  let sequence = 0;

  it('answers and writes what the read-check-update capture did, for any payment and request', async () => {
    const payment = fc.record({
      status: fc.constantFrom('authorised', 'declined', 'voided', 'challenge'),
      currency: fc.constantFrom('AUD', 'NZD'),
      amount: fc.integer({ min: 1, max: 1_000 }),
      capturedShare: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    const request = fc.record({
      known: fc.boolean(),
      currency: fc.constantFrom('AUD', 'NZD'),
      amount: fc.integer({ min: 1, max: 1_200 }),
    });
    await fc.assert(
      fc.asyncProperty(payment, request, async (p, r) => {
        sequence += 1;
        const row: SandboxPaymentRow = {
          id: 0,
          payment_id: `sbx_pay_capture_${String(sequence)}`,
          reference: 'purchase-1',
          card_token: 'tok_sandbox_approved',
          amount_minor: p.amount,
          currency: p.currency,
          status: p.status,
          three_ds_status: 'NOT_REQUIRED',
          decline_reason: null,
          captured_minor: Math.floor(p.amount * p.capturedShare),
          refunded_minor: 0,
          challenge_id: null,
          challenge_answer: null,
          challenge_expires_at: null,
          merchant_name: null,
          return_url: null,
          created_at: created,
          updated_at: created,
        };
        const { id: _id, ...values } = row;
        await database.db.insertInto('sandbox_payment').values(values).execute();
        const captureRequest: CaptureRequest = {
          idempotencyKey: `capture:${String(sequence)}`,
          paymentId: r.known ? row.payment_id : `sbx_pay_unknown_${String(sequence)}`,
          amount: { amountMinor: r.amount, currency: r.currency },
        };
        const step = await database.db.transaction().execute((tx) => capture(tx, captureRequest, now));
        const expected = referenceCapture(r.known ? row : undefined, captureRequest);
        expect(step).toEqual({ outcome: expected.outcome, store: true });
        const after = await database.db
          .selectFrom('sandbox_payment')
          .selectAll()
          .where('payment_id', '=', row.payment_id)
          .executeTakeFirstOrThrow();
        expect(after.captured_minor).toBe(expected.capturedMinor ?? row.captured_minor);
        expect(after.updated_at).toBe(expected.capturedMinor === undefined ? created : now.toISOString());
        expect({ ...after, captured_minor: 0, updated_at: '', id: 0 }).toEqual({
          ...row,
          captured_minor: 0,
          updated_at: '',
          id: 0,
        });
      }),
      { numRuns: 150 },
    );
  });
});
