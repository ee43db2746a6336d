import type { Clock } from '../../context.js';
import type { Db } from '../../db/database.js';
import { lockName } from '../../db/named-locks.js';
import { newRecordId } from '../../kernel/ids/ordered-ids.js';
import type {
  AuthorisationOutcome,
  AuthoriseRequest,
  CaptureRequest,
  ContinueThreeDsRequest,
  GatewayError,
  Money,
  PaymentGateway,
  RefundRequest,
  SettlementOutcome,
  VoidRequest,
} from '../gateway.js';
import {
  chargeRefusal,
  creditRefusal,
  positionOf,
  releaseRefusal,
  type AccountEntry,
  type AccountOwner,
  type EntryKind,
  type PaymentPosition,
  type AccountRefusal,
} from './ledger.js';
import { findEntry, insertEntry, paymentEntries } from './repository.js';

export interface AccountGatewayOptions {
  readonly db: Db;
  readonly clock: Clock;
}

/** The prefix of an on-account payment's id (a card gateway's ids look otherwise). */
export const ACCOUNT_PAYMENT_PREFIX = 'acct_';

const UNAVAILABLE: GatewayError = {
  outcome: 'gateway_error',
  code: 'ACCOUNT_UNAVAILABLE',
  message: "The partner's account could not be reached.",
  retryable: true,
};

const KEY_REUSED: GatewayError = {
  outcome: 'gateway_error',
  code: 'IDEMPOTENCY_KEY_REUSED',
  message: 'This idempotency key was used for a different call.',
  retryable: false,
};

const invalid = (message: string): GatewayError => ({
  outcome: 'gateway_error',
  code: 'INVALID_REQUEST',
  message,
  retryable: false,
});

/** What a card processor's API would refuse before anything, refused here too. */
function requestProblem(key: string, amount?: Money): GatewayError | undefined {
  if (key.length < 1 || key.length > 255) return invalid('idempotencyKey must be 1–255 characters.');
  if (amount && (!Number.isSafeInteger(amount.amountMinor) || amount.amountMinor <= 0))
    return invalid('amount.amountMinor must be a positive integer.');
  if (amount && !/^[A-Z]{3}$/.test(amount.currency)) return invalid('amount.currency must be an ISO 4217 code.');
  return undefined;
}

/** The settlement a movement of `kind` answers. */
const SETTLED = { charge: 'captured', release: 'voided', credit: 'refunded' } as const;

const moneyOf = (entry: AccountEntry): Money => ({ amountMinor: entry.amountMinor, currency: entry.currency });

/** Thrown inside a transaction to roll it back when a concurrent call under the same key wrote first. */
class LostRace extends Error {}

/**
 * The "gateway" of on-account payments (kernel/money/payment-methods.ts `ON_ACCOUNT`): the partner's
 * account at a brand, kept in `partner_account_entry`. The money flow (payments/flow/flow.ts) runs
 * unchanged over it: authorise is approved at once (no card, no 3-D Secure) and opens a hold
 * `acct_…`; capture charges it to the account, void releases it, refund credits the account
 * (never a card). Each call is one entry written under the call's idempotency key: a replay finds
 * the entry and answers it again; the same key with another call is refused.
 */
export class AccountGateway implements PaymentGateway {
  constructor(
    private readonly options: AccountGatewayOptions,
    private readonly owner: AccountOwner,
  ) {}

  async authorise(request: AuthoriseRequest): Promise<AuthorisationOutcome> {
    const problem = requestProblem(request.idempotencyKey, request.amount);
    if (problem) return problem;
    const hold: AccountEntry = {
      idempotencyKey: request.idempotencyKey,
      paymentId: `${ACCOUNT_PAYMENT_PREFIX}${newRecordId()}`,
      ...this.owner,
      kind: 'hold',
      amountMinor: request.amount.amountMinor,
      currency: request.amount.currency,
      reference: request.reference,
      createdAt: this.options.clock().toISOString(),
    };
    try {
      // A key is nearly always new: one insert, and a key held already is read and replayed.
      const written = (await insertEntry(this.options.db, hold))
        ? hold
        : await findEntry(this.options.db, hold.idempotencyKey);
      if (!written) return UNAVAILABLE;
      const same =
        written.kind === 'hold' &&
        written.amountMinor === hold.amountMinor &&
        written.currency === hold.currency &&
        written.reference === hold.reference &&
        written.partnerId === hold.partnerId &&
        written.brandCode === hold.brandCode;
      if (!same) return KEY_REUSED;
      return {
        outcome: 'approved',
        paymentId: written.paymentId,
        amount: moneyOf(written),
        threeDSStatus: 'NOT_REQUIRED',
      };
    } catch {
      // The account's store is this gateway's "network": failing to reach it is an outage, nothing happened.
      return UNAVAILABLE;
    }
  }

  /** No challenge is ever asked on account, so there is nothing to continue. */
  continueThreeDs(request: ContinueThreeDsRequest): Promise<AuthorisationOutcome> {
    return Promise.resolve({
      outcome: 'declined',
      paymentId: request.paymentId,
      reason: 'THREEDS_CHALLENGE_FAILED',
      threeDSStatus: 'NOT_REQUIRED',
    });
  }

  capture(request: CaptureRequest): Promise<SettlementOutcome> {
    return this.move('charge', request, request.amount, (position) =>
      chargeRefusal(position, request.amount.amountMinor, request.amount.currency),
    );
  }

  void(request: VoidRequest): Promise<SettlementOutcome> {
    return this.move('release', request, undefined, releaseRefusal);
  }

  refund(request: RefundRequest): Promise<SettlementOutcome> {
    return this.move('credit', request, request.amount, (position) =>
      creditRefusal(position, request.amount.amountMinor, request.amount.currency),
    );
  }

  /**
   * A movement on an open payment: the payment's entries read and judged under its lock (one
   * movement of a payment at a time across processes), then the entry written under the call's
   * key. A refusal is not written (the same call is judged again on a retry, and the payment's
   * entries only ever grow, so it is refused again).
   */
  private async move(
    kind: Exclude<EntryKind, 'hold'>,
    request: { readonly idempotencyKey: string; readonly paymentId: string },
    amount: Money | undefined,
    refusal: (position: PaymentPosition | undefined) => AccountRefusal | undefined,
  ): Promise<SettlementOutcome> {
    const problem = requestProblem(request.idempotencyKey, amount);
    if (problem) return problem;
    const { db, clock } = this.options;
    const replayOf = (entry: AccountEntry): SettlementOutcome =>
      entry.kind === kind &&
      entry.paymentId === request.paymentId &&
      (amount === undefined || (entry.amountMinor === amount.amountMinor && entry.currency === amount.currency))
        ? { outcome: SETTLED[kind], paymentId: entry.paymentId, amount: moneyOf(entry) }
        : KEY_REUSED;
    try {
      return await db.transaction().execute(async (tx) => {
        await lockName(tx, `partner-account:${request.paymentId}`);
        const earlier = await findEntry(tx, request.idempotencyKey);
        if (earlier) return replayOf(earlier);
        const position = positionOf(await paymentEntries(tx, request.paymentId));
        const refused = refusal(position);
        if (refused || !position) {
          const why = refused ?? { code: 'PAYMENT_NOT_FOUND', message: 'No such payment on the account.' };
          return { outcome: 'rejected', paymentId: request.paymentId, ...why } as const;
        }
        const { hold } = position;
        const entry: AccountEntry = {
          idempotencyKey: request.idempotencyKey,
          paymentId: hold.paymentId,
          partnerId: hold.partnerId,
          brandCode: hold.brandCode,
          kind,
          amountMinor: amount?.amountMinor ?? hold.amountMinor,
          currency: hold.currency,
          reference: hold.reference,
          createdAt: clock().toISOString(),
        };
        if (!(await insertEntry(tx, entry))) throw new LostRace();
        return { outcome: SETTLED[kind], paymentId: entry.paymentId, amount: moneyOf(entry) };
      });
    } catch (error) {
      if (error instanceof LostRace) {
        const winner = await findEntry(db, request.idempotencyKey).catch(() => undefined);
        if (winner) return replayOf(winner);
      }
      return UNAVAILABLE;
    }
  }
}
