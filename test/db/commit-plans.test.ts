import { describe, expect, it } from 'vitest';
import { findPartner } from '../../src/auth/accounts.js';
import { catalogueOf } from '../../src/catalogue/service.js';
import { purchaseReferralsFor } from '../../src/purchases/deps.js';
import type { Db } from '../../src/db/database.js';
import { everyRouteTo, type PaymentGateway } from '../../src/payments/gateway.js';
import { prepareIssue } from '../../src/policies/service.js';
import { endAttempt, issuePurchase, recordCapture } from '../../src/purchases/commits.js';
import type { Purchase } from '../../src/purchases/model.js';
import { findPurchaseOfQuote } from '../../src/purchases/repository.js';
import { purchaseQuote } from '../../src/purchases/service.js';
import type { TestApp } from '../helpers/app.js';
import { useTestApp } from '../helpers/app.js';
import { CARDS, NOW, purchaseBody, readyQuote } from '../purchases/support.js';

/**
 * Parity of the commit plans (db/commit-plan.ts): every step of the purchase's plans (claim and
 * record, lock and number and write the policy, mark bought, the documents' e-mail, each event's
 * sequence, row and publishing message, the moves, the release) run here in this engine's form
 * (SQLite: one statement each in a transaction; PostgreSQL: CTEs of one statement) and must
 * write exactly the rows the snapshot holds, which both engines' runs check.
 */

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });
const AT = NOW.toISOString();

class Stop extends Error {}

/** A STARTED purchase (the start plan: its quote claimed and the attempt recorded), stopped before the gateway. */
async function startedPurchase(t: TestApp): Promise<Purchase> {
  const quote = await readyQuote(t);
  const partner = await findPartner(t.context, 'PARTNERA');
  const stopping: PaymentGateway = { ...t.app.paymentGateway, authorise: () => Promise.reject(new Stop()) };
  const call = {
    buyer: { userId: 1, partnerId: partner!.id, partnerCode: 'PARTNERA' },
    brandCode: 'brandau' as const,
    body: purchaseBody(quote, CARDS.approved),
    client: {},
  };
  const deps = {
    db: t.context.db,
    gateways: everyRouteTo(stopping),
    clock: () => NOW,
    catalogue: catalogueOf(t.context),
    screenings: { ofQuote: () => Promise.resolve([]) },
    referrals: purchaseReferralsFor(t.context),
  };
  await expect(purchaseQuote(deps, call)).rejects.toBeInstanceOf(Stop);
  const started = await findPurchaseOfQuote(t.context.db, quote.id, ['STARTED']);
  if (!started) throw new Error('no STARTED purchase');
  return started;
}

const TABLES = {
  quote: ['is_purchase_initiated', 'is_purchased', 'policy_number', 'stage', 'revision', 'updated_at'],
  purchase: ['state', 'payment_id', 'payment_result', 'decline_reason', 'three_ds_status', 'policy_number'],
  policy_number_counter: ['prefix', 'country', 'year', 'last_value'],
  policy_header: ['policy_number', 'quote_id', 'status', 'sequence_number', 'plan_json', 'created_at'],
  policy_detail: ['policy_detail_number', 'sequence_number', 'action_type', 'payment_reference', 'address_json'],
  policy_traveller: ['role', 'display_order', 'is_primary', 'first_name', 'surname', 'age'],
  policy_option: ['option_type_id', 'name', 'display_order'],
  policy_financial_value: ['transaction_type_id', 'name', 'amount_minor'],
  event_counter: ['name', 'last_value'],
  partner_event: ['event_id', 'source_key', 'type', 'policy_number', 'policy_sequence', 'occurred_at', 'data_json'],
  outbox_message: ['message_key', 'kind', 'payload_json', 'state', 'attempts', 'next_attempt_at'],
} as const;

/**
 * Every row the plans wrote, in insertion order (the outbox by kind first: PostgreSQL runs one
 * statement's CTEs in no set order), with random ids named by first appearance.
 */
async function rowsWritten(db: Db): Promise<unknown> {
  const tables: Record<string, unknown[]> = {};
  for (const [table, columns] of Object.entries(TABLES))
    tables[table] = await db
      .selectFrom(table as keyof typeof TABLES)
      .select(columns as never)
      .$if(table === 'outbox_message', (q) => q.orderBy('kind' as never))
      .orderBy((table === 'event_counter' ? 'name' : 'id') as never)
      .execute();
  const names = new Map<string, string>();
  const text = JSON.stringify(tables).replace(
    /evt_[A-Za-z0-9_-]{22}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
    (id) => names.get(id) ?? (names.set(id, `<id ${names.size + 1}>`), `<id ${names.size}>`),
  );
  return JSON.parse(text);
}

// One title for both engines: the snapshot each run checks is the same.
describe('the commit plans', () => {
  it('write the same rows on either engine: start, issue, capture, and an attempt declined', async () => {
    const t = getApp();
    const db = t.context.db;
    const bought = await startedPurchase(t);
    const patch = { paymentId: 'sbx_pay_1', paymentResult: 'APPROVED', threeDSStatus: 'NOT_REQUIRED', challenge: null };
    const request = { ...bought.issueRequest, paymentReference: patch.paymentId };
    const issue = {
      purchase: bought,
      from: ['STARTED'] as const,
      patch,
      request,
      issue: prepareIssue(request, NOW),
      at: AT,
    };
    const issued = await issuePurchase(db, issue);
    expect(issued.refused).toBeUndefined();
    expect(await issuePurchase(db, issue)).toEqual({ refused: 'overtaken' });
    const captured = await recordCapture(db, issued.issued!, AT);
    expect(captured?.state).toBe('CAPTURED');
    expect(await recordCapture(db, issued.issued!, AT)).toBeUndefined();

    const refused = await startedPurchase(t);
    const end = {
      from: ['STARTED'] as const,
      to: 'DECLINED' as const,
      patch: { paymentResult: 'DECLINED', declineReason: 'CARD_DECLINED' },
      at: AT,
    };
    expect((await endAttempt(db, refused, end))?.state).toBe('DECLINED');
    expect(await endAttempt(db, refused, end)).toBeUndefined();

    expect(await rowsWritten(db)).toMatchSnapshot();
  });
});
