import { createHash } from 'node:crypto';
import type { Clock } from '../../context.js';
import type { Db, Tx } from '../../db/database.js';
import type {
  AuthorisationOutcome,
  AuthoriseRequest,
  CaptureRequest,
  ContinueThreeDsRequest,
  GatewayError,
  PaymentGateway,
  RefundRequest,
  SettlementOutcome,
  VoidRequest,
} from '../gateway.js';
import * as issuer from './issuer.js';
import {
  captureRecorded,
  findOperation,
  insertOperation,
  insertPaymentRecorded,
  type NewOperationRow,
  type RecordedWrite,
} from './repository.js';

export interface SandboxGatewayOptions {
  readonly db: Db;
  readonly clock: Clock;
  /** Absolute base of the challenge pages, e.g. `https://api.example.com/sandbox/3ds`. */
  readonly challengeBaseUrl: string;
}

/** Thrown inside a transaction to roll it back when an earlier or concurrent call recorded the same key. */
class LostRace extends Error {}

const UNAVAILABLE: GatewayError = {
  outcome: 'gateway_error',
  code: 'GATEWAY_UNAVAILABLE',
  message: 'The payment gateway could not be reached.',
  retryable: true,
};

/** Tells a replay of the same call from another call under the same key. */
function fingerprintOf(operation: string, request: { idempotencyKey: string; checkout?: unknown }): string {
  // The checkout is what a page shows: recovery replays a call without it.
  const { idempotencyKey: _key, checkout: _shown, ...call } = request;
  return createHash('sha256').update(JSON.stringify({ operation, call })).digest('hex');
}

type CallRecord = NewOperationRow;

/** The record of a call that answered `outcome`, as a replay will find it. */
function callRecord(operation: string, request: { idempotencyKey: string }, outcome: unknown, now: Date): CallRecord {
  const paymentId = (outcome as { paymentId?: string }).paymentId ?? null;
  return {
    idempotency_key: request.idempotencyKey,
    operation,
    fingerprint: fingerprintOf(operation, request),
    payment_id: paymentId,
    outcome_json: JSON.stringify(outcome),
    created_at: now.toISOString(),
  };
}

function invalid(message: string): GatewayError {
  return { outcome: 'gateway_error', code: 'INVALID_REQUEST', message, retryable: false };
}

/** Checks what a real processor's API would refuse before doing anything. */
function requestProblem(request: {
  idempotencyKey: string;
  amount?: { amountMinor: number; currency: string };
}): GatewayError | undefined {
  if (request.idempotencyKey.length < 1 || request.idempotencyKey.length > 255)
    return invalid('idempotencyKey must be 1–255 characters.');
  const { amount } = request;
  if (amount && (!Number.isSafeInteger(amount.amountMinor) || amount.amountMinor <= 0))
    return invalid('amount.amountMinor must be a positive integer.');
  if (amount && !/^[A-Z]{3}$/.test(amount.currency)) return invalid('amount.currency must be an ISO 4217 code.');
  return undefined;
}

/**
 * The staging gateway: a simulated card processor and issuer whose state lives in this
 * application's database, so every server process sees the same payments. Each call is
 * recorded under its idempotency key in the same transaction as its effect: a replay returns
 * the recorded outcome; the same key with a different call is refused.
 */
export class SandboxGateway implements PaymentGateway {
  constructor(private readonly options: SandboxGatewayOptions) {}

  /** The new payment is decided without reading anything, then written with the call's record as one unit. */
  async authorise(request: AuthoriseRequest): Promise<AuthorisationOutcome> {
    const problem = requestProblem(request);
    if (problem) return problem;
    const now = this.options.clock();
    const { payment, step } = issuer.authorisationOf(request, { now, challengeBaseUrl: this.options.challengeBaseUrl });
    const call = callRecord('authorise', request, step.outcome, now);
    // A simulated outage is never recorded (retrying the same key asks again), unless the key holds another call's outcome.
    if (!payment)
      return this.replayOf<AuthorisationOutcome>(call).then(
        (replayed) => replayed ?? step.outcome,
        () => UNAVAILABLE,
      );
    return (
      (await this.recorded(call, step.outcome, () => insertPaymentRecorded(this.options.db, payment, call))) ??
      UNAVAILABLE
    );
  }

  continueThreeDs(request: ContinueThreeDsRequest): Promise<AuthorisationOutcome> {
    return this.once('continue_3ds', request, (tx, now) =>
      issuer.continueThreeDs(tx, request, { now, challengeBaseUrl: this.options.challengeBaseUrl }),
    );
  }

  /**
   * Nearly always allowed: one conditional update written with the call's record as one unit.
   * When the payment cannot be captured so, the general path reads it, says why and records that.
   */
  async capture(request: CaptureRequest): Promise<SettlementOutcome> {
    const problem = requestProblem(request);
    if (problem) return problem;
    const now = this.options.clock();
    const captured: SettlementOutcome = { outcome: 'captured', paymentId: request.paymentId, amount: request.amount };
    const call = callRecord('capture', request, captured, now);
    const check = {
      paymentId: request.paymentId,
      currency: request.amount.currency,
      amountMinor: request.amount.amountMinor,
      at: now.toISOString(),
    };
    const outcome = await this.recorded(call, captured, () => captureRecorded(this.options.db, check, call));
    return outcome ?? this.once('capture', request, (tx, at) => issuer.capture(tx, request, at));
  }

  void(request: VoidRequest): Promise<SettlementOutcome> {
    return this.once('void', request, (tx, now) => issuer.voidPayment(tx, request, now));
  }

  refund(request: RefundRequest): Promise<SettlementOutcome> {
    return this.once('refund', request, (tx, now) => issuer.refund(tx, request, now));
  }

  /**
   * Writes a call's effect with its record: answers `outcome` when written, the recorded outcome
   * when the key was held already, undefined when the effect did not apply (nothing written).
   */
  private async recorded<T>(
    call: CallRecord,
    outcome: T,
    write: () => Promise<RecordedWrite>,
  ): Promise<T | GatewayError | undefined> {
    try {
      const written = await write();
      if (written === 'done') return outcome;
      if (written === 'not-applied') return undefined;
      const replayed = await this.replayOf<T>(call);
      if (replayed) return replayed;
    } catch {
      // As in `once`: the store is the sandbox's "network".
    }
    return UNAVAILABLE;
  }

  /** The outcome recorded under the call's key, for this call (or a refusal when another call holds it). */
  private async replayOf<T>(call: CallRecord): Promise<T | GatewayError | undefined> {
    const recorded = await findOperation(this.options.db, call.idempotency_key);
    return recorded && replay<T>(recorded, call.fingerprint);
  }

  private async once<T>(
    operation: string,
    request: { idempotencyKey: string; amount?: { amountMinor: number; currency: string } },
    step: (tx: Tx, now: Date) => Promise<issuer.Step<T>>,
  ): Promise<T | GatewayError> {
    const problem = requestProblem(request);
    if (problem) return problem;
    const { idempotencyKey } = request;
    const fingerprint = fingerprintOf(operation, request);
    const { db, clock } = this.options;
    try {
      // Optimistic: a key is nearly always new, so the step runs first and recording the key
      // tells a replay (no look-up before every call). A key already held rolls the step back
      // and answers the recorded outcome; an answer that is never stored looks the key up.
      return await db.transaction().execute(async (tx) => {
        const now = clock();
        const { outcome, store } = await step(tx, now);
        if (!store) {
          if (await findOperation(tx, idempotencyKey)) throw new LostRace();
          return outcome;
        }
        const recorded = await insertOperation(tx, callRecord(operation, request, outcome, now));
        if (!recorded) throw new LostRace();
        return outcome;
      });
    } catch (error) {
      if (error instanceof LostRace) {
        const winner = await findOperation(db, idempotencyKey);
        if (winner) return replay<T>(winner, fingerprint);
      }
      // The sandbox's store is its "network": failing to reach it is an outage, and nothing happened.
      return UNAVAILABLE;
    }
  }
}

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller knows which outcome type it recorded
function replay<T>(previous: { fingerprint: string; outcome_json: string }, fingerprint: string): T | GatewayError {
  if (previous.fingerprint !== fingerprint) {
    return {
      outcome: 'gateway_error',
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: 'This idempotency key was used for a different call.',
      retryable: false,
    };
  }
  return JSON.parse(previous.outcome_json) as T;
}
