import type { BackgroundLog } from '../../logging/background-log.js';
import type { Clock } from '../../context.js';
import type { Db, Executor } from '../../db/database.js';
import type { PaymentMethod } from '../../kernel/money/payment-methods.js';
import type { PaymentGateways, PaymentResult } from '../gateway.js';

/**
 * What the money flow (flow.ts) is handed: its collaborators, the records whose money it moves,
 * and each area's `MoneyArea` (its states, its commits, its answers).
 */

/** The collaborators of a money flow; `crashAfter` names the area's test crash point. */
export interface MoneyDeps<Crash extends string = string> {
  readonly db: Db;
  /** The gateway of each record's route (its brand and payment method). */
  readonly gateways: PaymentGateways;
  readonly clock: Clock;
  readonly log?: BackgroundLog;
  /** Test hook (never in production): kill the process right after this step. */
  readonly crashAfter?: Crash;
  /** Test hook (never in production): called at every crash point with its step (`AppContext.crashHook`). */
  readonly crashHook?: (step: string) => void;
}

export type GatewayStep = 'authorise' | '3ds' | 'capture' | 'void';

/** A 3-D Secure challenge waiting for the cardholder, as a record keeps it. */
export interface ChallengeInfo {
  readonly threeDSStatus: string;
  readonly threeDSRequestPattern: string;
  readonly threeDSResponse: string;
}

/** A record whose money the flow moves: a purchase, a policy change. */
export interface Payable<S extends string> {
  readonly id: string;
  readonly state: S;
  readonly brandCode: string;
  readonly paymentMethod: PaymentMethod;
  readonly partnerId: number;
  readonly amountMinor: number;
  readonly currency: string;
  readonly cardToken?: string;
  readonly paymentId?: string;
  readonly challenge?: ChallengeInfo;
  readonly updatedAt: string;
}

/** What a gateway's answer records beside the state. */
export interface PaymentPatch {
  readonly paymentId?: string;
  readonly paymentResult?: PaymentResult;
  readonly declineReason?: string | null;
  readonly threeDSStatus?: string;
  readonly challenge?: ChallengeInfo | null;
  readonly challengeExpiresAt?: string;
}

/** An approval not recorded yet: the states it may be recorded from, and what the gateway answered. */
export interface Approval<S extends string> {
  readonly from: readonly S[];
  readonly patch: PaymentPatch & { readonly paymentId: string };
}

type Move<P, S> = (
  db: Executor,
  record: P,
  from: readonly S[],
  to: S,
  patch: PaymentPatch,
  at: string,
) => Promise<P | undefined>;

/**
 * What committing an approval answered: the record to capture next (and the area's answer once
 * captured); one another step took elsewhere (go on from there, first releasing this approval's
 * hold when it is not the one that record keeps); or an approval that cannot stand (why), whose
 * hold is released before the record ends.
 */
export type Committed<P, R> =
  | { readonly applied: P; readonly answer: (captured: P) => R }
  | { readonly overtaken: P; readonly releaseOurs: boolean }
  | { readonly unusable: P; readonly paymentId?: string; readonly why: string; readonly error?: unknown };

/**
 * What an area gives the flow: its states, its commits, its answers. `R` is what a step answers
 * (the record, or the record with what its commit wrote). The flow makes the gateway calls in
 * their order; the area's commits take only the executor, the record and the time.
 */
export interface MoneyArea<S extends string, P extends Payable<S>, R> {
  /** The record's name in logs ('purchase', 'policy change') and in a continuation's problems ('purchase', 'change'). */
  readonly name: string;
  readonly challengeOf: string;
  readonly logKey: string;
  /** The gateway key of a step: derived from the record, so a retry replays. */
  readonly key: (record: P, step: GatewayStep) => string;
  readonly find: (db: Executor, id: string) => Promise<P | undefined>;
  /** What an Idempotency-Key record names as the record its request started or continued (`subject`). */
  readonly subjectOf: (record: P) => string;
  /** The record a key's `subject` names, when it is one of this area's. */
  readonly ofSubject: (db: Executor, subject: string) => Promise<P | undefined>;
  /** States a process works through without waiting for anyone (a held key waits for them). */
  readonly working: readonly S[];
  /** States an authorisation's answer is recorded from; the one of a waiting challenge. */
  readonly authorising: readonly S[];
  readonly challengePending: S;
  readonly move: Move<P, S>;
  /** The approval's commit with what it brings (the policy, the transaction); the crash point right after it. */
  readonly approved: (db: Db, record: P, approval: Approval<S> | undefined, at: string) => Promise<Committed<P, R>>;
  readonly appliedCrashPoint: string;
  /** An unusable approval's end, once its hold is released; undefined when the record had moved on. */
  readonly voided: (db: Db, record: P, paymentId: string | undefined, at: string) => Promise<P | undefined>;
  /** A refused card's, a failed gateway's commit. */
  readonly declined: (db: Db, record: P, from: readonly S[], patch: PaymentPatch, at: string) => Promise<P | undefined>;
  readonly failed: (db: Db, record: P, from: readonly S[], patch: PaymentPatch, at: string) => Promise<P | undefined>;
  readonly captured: (db: Db, record: P, at: string) => Promise<P | undefined>;
  /** The gateway refuses to capture (the hold is gone); without it the record stays for recovery. */
  readonly captureRejected?: (db: Db, record: P, code: string, at: string) => Promise<P | undefined>;
  readonly settled: (record: P) => R;
  /** Takes a record as far as it can go from its state (after losing a race). */
  readonly advance: (deps: MoneyDeps, record: P) => Promise<R>;
}
