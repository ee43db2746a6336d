import { sql } from 'kysely';
import type { Db, Executor } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { reusableQuery, type ReusableQuery } from '../db/reusable-query.js';
import type { PolicyIssueRequest } from '../policies/issue-request.js';
import { issueNumberedPolicy, POLICY_WRITE_NAMES, policyWriteValues, withPolicyWrites, type NumberedIssue, type PolicyWriteValues } from '../policies/repository.js';
import type { Purchase, PurchaseState } from './model.js';
import { changeState, findPurchase, patchColumns, STATE_COLUMNS, toPurchase, type PurchasePatch, type ReadRow } from './repository.js';

/**
 * The issuing commit of a purchase: the purchase becomes ISSUED (with the gateway's approval when
 * it is recorded in the same commit), the policy is numbered and written, the quote is bought.
 * All of it or none of it.
 */
export interface PurchaseIssue {
  /** The purchase in hand; its issue request is the one stored when it started (never changed since). */
  readonly purchase: Purchase;
  /** The states it may be issued from (compare and set: of racing processes one wins). */
  readonly from: readonly PurchaseState[];
  readonly patch: PurchasePatch;
  readonly request: PolicyIssueRequest;
  readonly issue: NumberedIssue;
  readonly at: string;
}

/** Issued, with the quote's new revision; or why nothing was written. */
export type IssueOutcome =
  | { readonly issued: Purchase; readonly quoteRevision: number; readonly refused?: undefined }
  | { readonly issued?: undefined; readonly quoteRevision?: undefined; readonly refused: 'overtaken' | 'quote-bought' | 'policy-exists' };

/**
 * PostgreSQL: one statement in its own transaction (no BEGIN, no COMMIT round trips): the purchase
 * and its quote are locked and checked, then the counter is taken and everything written. The
 * counter's row lock (held to the commit, for gapless numbers) is then held for the rest of one
 * statement and its commit, never across a round trip to this process, whose event loop may be
 * busy with other requests meanwhile (that wait, under the lock, capped issuance at ~260/s).
 * SQLite: one transaction of separate statements (a statement there costs no round trip).
 */
export async function issuePurchase(db: Db, unit: PurchaseIssue): Promise<IssueOutcome> {
  return dialectOf(db) === 'postgres' ? issueInOneStatement(db, unit) : issueInTransaction(db, unit);
}

/** Rolls the SQLite transaction back, telling why. */
class Refused extends Error {
  constructor(readonly reason: 'quote-bought' | 'policy-exists') {
    super(reason);
  }
}

async function issueInTransaction(db: Db, unit: PurchaseIssue): Promise<IssueOutcome> {
  const { purchase, at } = unit;
  try {
    return await db.transaction().execute(async (tx) => {
      const moved = await changeState(tx, 'state', purchase.id, unit.from, 'ISSUED', unit.patch, at);
      if (!moved) return { refused: 'overtaken' } as const;
      const policy = await issueNumberedPolicy(tx, unit.request, unit.issue);
      if (!policy) throw new Refused('policy-exists');
      const [bought] = (await markBought(tx, { quoteId: purchase.quoteId, policyNumber: policy.policyNumber, at })).rows;
      if (!bought) throw new Refused('quote-bought');
      await numberPurchase(tx, { id: purchase.id, policyNumber: policy.policyNumber });
      return { issued: toPurchase({ ...(moved as ReadRow), policy_number: policy.policyNumber }, purchase), quoteRevision: bought.revision };
    });
  } catch (error) {
    if (error instanceof Refused) return { refused: error.reason };
    throw error;
  }
}

const markBought = reusableQuery(['quoteId', 'policyNumber', 'at'], (db, v: { quoteId: string; policyNumber: string; at: string }) =>
  db
    .updateTable('quote')
    .set((eb) => ({ is_purchased: 1, is_purchase_initiated: 1, policy_number: v.policyNumber, stage: 'PAYMENT', revision: eb('revision', '+', 1), updated_at: v.at }))
    .where('public_id', '=', v.quoteId)
    .where('is_purchased', '=', 0)
    .returning('revision'),
);
const numberPurchase = reusableQuery(['id', 'policyNumber'], (db, v: { id: string; policyNumber: string }) =>
  db.updateTable('purchase').set({ policy_number: v.policyNumber }).where('public_id', '=', v.id),
);

type IssuedRow = ReadRow & { quote_revision: number };
type IssueValues = PolicyWriteValues & { id: string; quoteId: string; at: string };

/** One compiled statement per shape (the approval's columns, how many states it may come from): a handful, all from flow.ts. */
const issueStatements = new Map<string, ReusableQuery<Record<string, unknown>, IssuedRow>>();

function issueStatementFor(patchNames: readonly string[], fromCount: number): ReusableQuery<Record<string, unknown>, IssuedRow> {
  const key = `${fromCount}:${patchNames.join(',')}`;
  let statement = issueStatements.get(key);
  if (statement) return statement;
  const fromNames = Array.from({ length: fromCount }, (_, i) => `from_${i}`);
  statement = reusableQuery([...POLICY_WRITE_NAMES, ...patchNames, 'id', 'quoteId', 'at', ...fromNames], (db, v: Record<string, unknown>) => {
    const values = v as IssueValues;
    const named = (name: string) => v[name] as string;
    // One row, locked, while the purchase may still be issued and its quote has no policy; else none,
    // and nothing is written (no number taken). Racing issuers queue on these rows.
    const gated = db.with('gate', (qc) =>
      qc
        .selectFrom(['purchase', 'quote'])
        .select(sql<number>`1`.as('open'))
        .where('purchase.public_id', '=', values.id)
        .where('purchase.state', 'in', fromNames.map(named))
        .where('quote.public_id', '=', values.quoteId)
        .where('quote.is_purchased', '=', 0)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('policy_header').select('policy_header.id').where('policy_header.quote_id', '=', values.quoteId))))
        .forUpdate(),
    );
    return withPolicyWrites(gated, values)
      .with('bought', (qc) =>
        qc
          .updateTable('quote')
          .from('header')
          .set((eb) => ({
            is_purchased: 1,
            is_purchase_initiated: 1,
            policy_number: eb.ref('header.policy_number'),
            stage: 'PAYMENT',
            revision: eb('quote.revision', '+', 1),
            updated_at: values.at,
          }))
          .where('quote.public_id', '=', values.quoteId)
          .returning('quote.revision'),
      )
      .with('issued', (qc) =>
        qc
          .updateTable('purchase')
          .from('header')
          .set((eb) => ({
            ...Object.fromEntries(patchNames.map((name) => [name, v[name]])),
            state: 'ISSUED',
            policy_number: eb.ref('header.policy_number'),
            updated_at: values.at,
          }))
          .where('purchase.public_id', '=', values.id)
          .returning(STATE_COLUMNS.map((column) => `purchase.${column}` as const)),
      )
      .selectFrom(['issued', 'bought'])
      .selectAll('issued')
      .select('bought.revision as quote_revision');
  });
  issueStatements.set(key, statement);
  return statement;
}

async function issueInOneStatement(db: Db, unit: PurchaseIssue): Promise<IssueOutcome> {
  const { purchase } = unit;
  const patch: Record<string, unknown> = patchColumns(unit.patch);
  const patchNames = Object.keys(patch);
  const values: Record<string, unknown> = { ...policyWriteValues(unit.request, unit.issue), ...patch, id: purchase.id, quoteId: purchase.quoteId, at: unit.at };
  unit.from.forEach((state, i) => (values[`from_${i}`] = state));
  const [row] = (await issueStatementFor(patchNames, unit.from.length)(db, values)).rows;
  if (!row) return { refused: await whyNotIssued(db, unit) };
  const { quote_revision: quoteRevision, ...issued } = row;
  return { issued: toPurchase(issued, purchase), quoteRevision };
}

/** Why the gate was closed (rare: a lost race or a defect); read after the fact. */
async function whyNotIssued(db: Executor, { purchase, from }: PurchaseIssue): Promise<'overtaken' | 'quote-bought' | 'policy-exists'> {
  const latest = await findPurchase(db, purchase.id);
  if (!latest || !from.includes(latest.state)) return 'overtaken';
  const quote = await db.selectFrom('quote').select('is_purchased').where('public_id', '=', purchase.quoteId).executeTakeFirst();
  return quote?.is_purchased === 1 ? 'quote-bought' : 'policy-exists';
}

