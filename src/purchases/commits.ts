import { sql, type QueryCreator } from 'kysely';
import type { Database, Db } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { purchaseDocumentsMessage } from '../documents/messages.js';
import { policyIssuedEvent, purchaseDeclinedEvent } from '../events/data.js';
import { recordEvent } from '../events/repository.js';
import {
  eventValues,
  ISSUED_EVENT_NAMES,
  NUMBER_IN_STATEMENT,
  withIssuedEvent,
  type EventValues,
} from '../events/statements.js';
import { enqueue, enqueueIfStatementOf, OUTBOX_NAMES, outboxValues, type OutboxValues } from '../outbox/repository.js';
import { reusableQuery, type ReusableQuery } from '../db/reusable-query.js';
import type { PolicyIssueRequest } from '../policies/issue-request.js';
import type { NumberedIssue } from '../policies/model.js';
import {
  POLICY_WRITE_NAMES,
  policyOfQuote,
  policyWriteValues,
  withPolicyWrites,
  writeNumberedPolicy,
  type GatedTables,
  type PolicyWriteValues,
} from '../policies/repository.js';
import {
  CLAIM_NAMES,
  claimQuote,
  claimStatement,
  claimValues,
  isQuoteBought,
  lockUnboughtQuote,
  markBoughtStatement,
  markQuoteBought,
  releaseQuote,
  type QuoteClaim,
} from '../quotes/repository-purchase.js';
import type { NewPurchase, Purchase, PurchaseState } from './model.js';
import {
  approvalColumns,
  findPurchase,
  insertedPurchaseJson,
  insertPurchase,
  insertPurchaseAfter,
  issuedPurchase,
  issuedStatement,
  lockPurchaseIn,
  moveState,
  numberPurchase,
  type IssuedRow,
  type PurchasePatch,
} from './repository.js';

/**
 * The purchase's two commits that write several tables, all or nothing: recording an attempt
 * (the quote claimed, the purchase STARTED) and issuing (the purchase ISSUED, the policy numbered
 * and written, the quote bought). Each table's statements belong to its own repository; this is
 * the one place that puts them together, and the one place where the engines differ:
 * - SQLite: one transaction of the repositories' statements (a statement costs no round trip).
 * - PostgreSQL: one statement of the repositories' CTEs, in its own transaction, with no BEGIN or
 *   COMMIT round trips. The issuing commit takes the policy-number counter's row lock (held to
 *   the commit, for gapless numbers) inside that one statement, never across a round trip to
 *   this process, whose event loop may be busy with other requests meanwhile (that wait, under
 *   the lock, capped issuance at ~260/s).
 */

/** How an attempt ends without a policy: its state, from where, what it records. */
export interface AttemptEnd {
  readonly from: readonly PurchaseState[];
  readonly to: 'DECLINED' | 'FAILED' | 'VOIDED';
  readonly patch: PurchasePatch;
  readonly at: string;
}

/**
 * Ends an attempt without a policy and frees its quote in one transaction (both engines): a crash
 * between the two writes left a quote claimed with no attempt in flight, refused for ever. A rare
 * path (declines, outages, voids), so a BEGIN/COMMIT round trip is cheap here. Undefined when the
 * purchase had moved on (another process won); nothing is written then.
 */
export async function endAttempt(db: Db, purchase: Purchase, end: AttemptEnd): Promise<Purchase | undefined> {
  return db.transaction().execute(async (tx) => {
    const moved = await moveState(tx, purchase, end.from, end.to, end.patch, end.at);
    if (moved) await releaseQuote(tx, purchase.quoteId, end.at);
    // The partner hears of a refused card (no policy: the quote may be bought again).
    if (moved?.state === 'DECLINED') await recordEvent(tx, { ...purchaseDeclinedEvent(moved), at: end.at });
    return moved;
  });
}

/** Claims the quote and records the purchase, both or neither, before any gateway call. False when the claim lost. */
export async function startPurchase(db: Db, claim: QuoteClaim, purchase: NewPurchase): Promise<boolean> {
  if (dialectOf(db) === 'postgres') {
    const result = await claimAndRecord(db, { ...claimValues(claim), row: insertedPurchaseJson(purchase) });
    return Number(result.numAffectedRows ?? 0) === 1;
  }
  return db.transaction().execute(async (tx) => {
    if (!(await claimQuote(tx, claim))) return false;
    await insertPurchase(tx, purchase);
    return true;
  });
}

const claimAndRecord = reusableQuery(
  [...CLAIM_NAMES, 'row'],
  (db, v: ReturnType<typeof claimValues> & { row: string }) =>
    insertPurchaseAfter(
      db.with('previous', (qc) => claimStatement(qc, v).returning('public_id')),
      v.row,
    ),
);

/**
 * Kysely types each CTE's query creator with every CTE before it; the repositories' statements are
 * typed against the tables (and the one earlier CTE) they use, which is all the SQL needs.
 */
const over = <DB>(qc: unknown) => qc as QueryCreator<DB>;
type WithHeader = Database & { header: { policy_number: string } };

/** An issuing commit: the purchase in hand, the states it may be issued from, and what it records. */
export interface PurchaseIssue {
  /** Its issue request is the one stored when it started (never changed since). */
  readonly purchase: Purchase;
  /** Compare and set: of racing processes one wins. */
  readonly from: readonly PurchaseState[];
  /** The gateway's approval when it is recorded in the same commit. */
  readonly patch: PurchasePatch;
  readonly request: PolicyIssueRequest;
  readonly issue: NumberedIssue;
  readonly at: string;
}

/** Issued, with the quote's new revision; or why nothing was written. */
export type IssueOutcome =
  | { readonly issued: Purchase; readonly quoteRevision: number; readonly refused?: undefined }
  | {
      readonly issued?: undefined;
      readonly quoteRevision?: undefined;
      readonly refused: 'overtaken' | 'quote-bought' | 'policy-exists';
    };

export async function issuePurchase(db: Db, unit: PurchaseIssue): Promise<IssueOutcome> {
  return dialectOf(db) === 'postgres' ? issueInOneStatement(db, unit) : issueInTransaction(db, unit);
}

/** Rolls the SQLite transaction back, telling why. */
class Refused extends Error {
  constructor(readonly reason: 'quote-bought' | 'policy-exists') {
    super(reason);
  }
}

async function issueInTransaction(
  db: Db,
  { purchase, from, patch, request, issue, at }: PurchaseIssue,
): Promise<IssueOutcome> {
  try {
    return await db.transaction().execute(async (tx) => {
      const moved = await moveState(tx, purchase, from, 'ISSUED', patch, at);
      if (!moved) return { refused: 'overtaken' } as const;
      const policyNumber = await writeNumberedPolicy(tx, request, issue);
      if (!policyNumber) throw new Refused('policy-exists');
      const quoteRevision = await markQuoteBought(tx, { quoteId: purchase.quoteId, policyNumber, at });
      if (quoteRevision === undefined) throw new Refused('quote-bought');
      await numberPurchase(tx, purchase.id, policyNumber);
      // The documents' e-mail, committed with the policy (outbox: sent by the worker, at least once).
      await enqueue(tx, purchaseDocumentsMessage(purchase.quoteId, at));
      await recordEvent(tx, { ...policyIssuedEvent(purchase, policyNumber), at });
      return { issued: { ...moved, policyNumber }, quoteRevision };
    });
  } catch (error) {
    if (error instanceof Refused) return { refused: error.reason };
    throw error;
  }
}

async function issueInOneStatement(db: Db, unit: PurchaseIssue): Promise<IssueOutcome> {
  const { purchase } = unit;
  const set = approvalColumns(unit.patch);
  const values: Record<string, unknown> = {
    ...policyWriteValues(unit.request, unit.issue),
    ...set,
    ...outboxValues(purchaseDocumentsMessage(purchase.quoteId, unit.at)),
    // Its number is the statement's: injected into the event's data there.
    ...eventValues({ ...policyIssuedEvent(purchase, NUMBER_IN_STATEMENT), at: unit.at }, 1),
    id: purchase.id,
    quoteId: purchase.quoteId,
    at: unit.at,
  };
  unit.from.forEach((state, i) => (values[`from_${i}`] = state));
  const [row] = (await issueStatementFor(Object.keys(set), unit.from.length)(db, values)).rows;
  if (!row) return { refused: await whyNotIssued(db, unit) };
  const { quote_revision: quoteRevision, ...issued } = row;
  return { issued: issuedPurchase(issued, purchase), quoteRevision };
}

/** One compiled statement per shape (the approval's columns, how many states it may come from): a handful, all from flow.ts. */
const issueStatements = new Map<
  string,
  ReusableQuery<Record<string, unknown>, IssuedRow & { quote_revision: number }>
>();

function issueStatementFor(setNames: readonly string[], fromCount: number) {
  const key = `${fromCount}:${setNames.join(',')}`;
  let statement = issueStatements.get(key);
  if (statement) return statement;
  const fromNames = Array.from({ length: fromCount }, (_, i) => `from_${i}`);
  statement = reusableQuery(
    [...POLICY_WRITE_NAMES, ...OUTBOX_NAMES, ...ISSUED_EVENT_NAMES, ...setNames, 'id', 'quoteId', 'at', ...fromNames],
    (db, v: Record<string, unknown>) => {
      const id = v.id as string;
      const quoteId = v.quoteId as string;
      const at = v.at as string;
      // One row while the purchase may still be issued, its quote is not bought and has no policy
      // (both rows locked: racing issuers queue on them); else none, and nothing is written.
      const gated = db
        .with('open_purchase', (qc) =>
          lockPurchaseIn(
            qc,
            id,
            fromNames.map((name) => v[name] as string),
          ),
        )
        .with('open_quote', (qc) => lockUnboughtQuote(over<Database>(qc), quoteId))
        .with('existing_policy', (qc) => policyOfQuote(over<Database>(qc), quoteId))
        .with('gate', (qc) =>
          qc
            .selectFrom(['open_purchase', 'open_quote'])
            .select(sql<number>`1`.as('open'))
            .where(sql<boolean>`not exists (select 1 from existing_policy)`),
        );
      const written = withPolicyWrites(over<GatedTables>(gated), v as unknown as PolicyWriteValues)
        .with('bought', (qc) => markBoughtStatement(over<WithHeader>(qc), { quoteId, at }))
        // The documents' e-mail, only when the header was written (the same gate as every write).
        .with('outbox', (qc) => enqueueIfStatementOf(over<WithHeader>(qc), 'header', v as unknown as OutboxValues));
      // policy.issued, likewise only with the header: its sequence, row and publishing message.
      const recorded = withIssuedEvent(written, v as unknown as EventValues) as unknown as typeof written;
      return recorded
        .with('issued', (qc) =>
          issuedStatement(over<WithHeader>(qc), {
            id,
            at,
            set: Object.fromEntries(setNames.map((name) => [name, v[name]])),
          }),
        )
        .selectFrom(['issued', 'bought'])
        .selectAll('issued')
        .select('bought.revision as quote_revision');
    },
  );
  issueStatements.set(key, statement);
  return statement;
}

/** Why the gate was closed (rare: a lost race or a defect); read after the fact. */
async function whyNotIssued(
  db: Db,
  { purchase, from }: PurchaseIssue,
): Promise<'overtaken' | 'quote-bought' | 'policy-exists'> {
  const latest = await findPurchase(db, purchase.id);
  if (!latest || !from.includes(latest.state)) return 'overtaken';
  return (await isQuoteBought(db, purchase.quoteId)) ? 'quote-bought' : 'policy-exists';
}
