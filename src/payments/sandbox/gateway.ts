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
import { findOperation, insertOperation } from './repository.js';

export interface SandboxGatewayOptions {
  readonly db: Db;
  readonly clock: Clock;
  /** Absolute base of the challenge pages, e.g. `https://api.example.com/sandbox/3ds`. */
  readonly challengeBaseUrl: string;
}

/** Thrown inside a transaction to roll it back when an earlier or concurrent call recorded the same key. */
class LostRace extends Error {}

function invalid(message: string): GatewayError {
  return { outcome: 'gateway_error', code: 'INVALID_REQUEST', message, retryable: false };
}

/** Checks what a real processor's API would refuse before doing anything. */
function requestProblem(request: { idempotencyKey: string; amount?: { amountMinor: number; currency: string } }): GatewayError | undefined {
  if (request.idempotencyKey.length < 1 || request.idempotencyKey.length > 255) return invalid('idempotencyKey must be 1–255 characters.');
  const { amount } = request;
  if (amount && (!Number.isSafeInteger(amount.amountMinor) || amount.amountMinor <= 0)) return invalid('amount.amountMinor must be a positive integer.');
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

  authorise(request: AuthoriseRequest): Promise<AuthorisationOutcome> {
    return this.once('authorise', request, (tx, now) => issuer.authorise(tx, request, { now, challengeBaseUrl: this.options.challengeBaseUrl }));
  }

  continueThreeDs(request: ContinueThreeDsRequest): Promise<AuthorisationOutcome> {
    return this.once('continue_3ds', request, (tx, now) =>
      issuer.continueThreeDs(tx, request, { now, challengeBaseUrl: this.options.challengeBaseUrl }),
    );
  }

  capture(request: CaptureRequest): Promise<SettlementOutcome> {
    return this.once('capture', request, (tx, now) => issuer.capture(tx, request, now));
  }

  void(request: VoidRequest): Promise<SettlementOutcome> {
    return this.once('void', request, (tx, now) => issuer.voidPayment(tx, request, now));
  }

  refund(request: RefundRequest): Promise<SettlementOutcome> {
    return this.once('refund', request, (tx, now) => issuer.refund(tx, request, now));
  }

  private async once<T>(
    operation: string,
    request: { idempotencyKey: string; amount?: { amountMinor: number; currency: string } },
    step: (tx: Tx, now: Date) => Promise<issuer.Step<T>>,
  ): Promise<T | GatewayError> {
    const problem = requestProblem(request);
    if (problem) return problem;
    const { idempotencyKey, ...call } = request;
    const fingerprint = createHash('sha256').update(JSON.stringify({ operation, call })).digest('hex');
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
        const paymentId = (outcome as { paymentId?: string }).paymentId ?? null;
        const recorded = await insertOperation(tx, {
          idempotency_key: idempotencyKey,
          operation,
          fingerprint,
          payment_id: paymentId,
          outcome_json: JSON.stringify(outcome),
          created_at: now.toISOString(),
        });
        if (!recorded) throw new LostRace();
        return outcome;
      });
    } catch (error) {
      if (error instanceof LostRace) {
        const winner = await findOperation(db, idempotencyKey);
        if (winner) return replay<T>(winner, fingerprint);
      }
      // The sandbox's store is its "network": failing to reach it is an outage, and nothing happened.
      return { outcome: 'gateway_error', code: 'GATEWAY_UNAVAILABLE', message: 'The payment gateway could not be reached.', retryable: true };
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
