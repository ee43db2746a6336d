import { describe, expect, it } from 'vitest';
import { isRefusedValue } from '../../src/db/refused-values.js';
import { moveState } from '../../src/purchases/repository.js';
import { recoverPurchases } from '../../src/purchases/recovery.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { books, CARDS, NOW, purchase, purchaseBody } from './support.js';
import { buyDirectly, dyingAfter, later, purchaseOf, quoteFlags, recoveryDeps } from './recovery-support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

describe(`purchase recovery hardening (${DIALECT})`, () => {
  it('a quote left claimed after its attempt ended (a crash between the final state and the release) is freed by recovery', async () => {
    const t = getApp();
    const { quoteId, termIds } = await buyDirectly(t, dyingAfter(t, 'authorise'), CARDS.declined);
    // What the crash left: the attempt final, the quote still claimed.
    const started = await purchaseOf(t, quoteId);
    await moveState(
      t.context.db,
      started,
      ['STARTED'],
      'DECLINED',
      { declineReason: 'DO_NOT_HONOUR' },
      NOW.toISOString(),
    );
    expect(await quoteFlags(t, quoteId)).toEqual({ is_purchased: 0, is_purchase_initiated: 1 });
    expect((await purchase(t, purchaseBody({ id: quoteId, termIds }, CARDS.approved))).statusCode).toBe(409);

    const early = await recoverPurchases(recoveryDeps(t, undefined, later(10)), { graceSeconds: 60 });
    expect(early.repairedClaims).toBe(0);
    const report = await recoverPurchases(recoveryDeps(t, undefined, later(61)), { graceSeconds: 60 });
    expect(report).toMatchObject({ repairedClaims: 1, failures: 0 });
    expect(await quoteFlags(t, quoteId)).toEqual({ is_purchased: 0, is_purchase_initiated: 0 });
    // Another card may be tried now.
    const bought = await purchase(t, purchaseBody({ id: quoteId, termIds }, CARDS.approved));
    expect(bought.statusCode).toBe(200);
    expect(bought.json<{ quote: { isPurchased: boolean } }>().quote.isPurchased).toBe(true);
    expect(await books(t, quoteId)).toMatchObject({ policies: 1, captures: 1 });
  });

  it('a declined attempt ends and frees its quote together', async () => {
    const t = getApp();
    const { quoteId } = await buyDirectly(t, t.app.paymentGateway, CARDS.declined);
    expect((await purchaseOf(t, quoteId)).state).toBe('DECLINED');
    expect(await quoteFlags(t, quoteId)).toEqual({ is_purchased: 0, is_purchase_initiated: 0 });
  });

  it('one bad record does not stop recovery: it is reported, the others are finished', async () => {
    const t = getApp();
    const bad = await buyDirectly(t, dyingAfter(t, 'authorise'));
    const good = await buyDirectly(t, dyingAfter(t, 'authorise'));
    const badId = (await purchaseOf(t, bad.quoteId)).id;
    await t.context.db
      .updateTable('purchase')
      .set({ issue_request_json: '{not json' })
      .where('public_id', '=', badId)
      .execute();
    const report = await recoverPurchases(recoveryDeps(t, undefined, later(1)), { graceSeconds: 0 });
    expect(report.failures).toBe(1);
    expect(report.problems).toEqual([{ purchaseId: badId, state: 'STARTED', reason: 'SyntaxError' }]);
    expect(report.outcomes).toEqual({ CAPTURED: 1 });
    expect(await books(t, good.quoteId)).toMatchObject({ policies: 1, captures: 1 });
    // Out of the way of the next tests (an operator would void it at the gateway).
    await t.context.db.updateTable('purchase').set({ state: 'FAILED' }).where('public_id', '=', badId).execute();
  });

  it('a stored value the database refuses (NUL in a holder name): the hold is voided and the quote freed on PostgreSQL', async () => {
    const t = getApp();
    const { quoteId } = await buyDirectly(t, dyingAfter(t, 'authorise'));
    const started = await purchaseOf(t, quoteId);
    const request = structuredClone(started.issueRequest) as unknown as Record<string, unknown>;
    // The first string field naming a person gets a NUL, as the audit's request carried it.
    const poisoned = JSON.stringify(request).replace('"Ada"', '"A\\u0000da"');
    expect(poisoned).toContain('\\u0000');
    await t.context.db
      .updateTable('purchase')
      .set({ issue_request_json: poisoned })
      .where('public_id', '=', started.id)
      .execute();
    const report = await recoverPurchases(recoveryDeps(t, undefined, later(1)), { graceSeconds: 0 });
    expect(report.failures).toBe(0);
    if (DIALECT === 'postgres') {
      expect(report.outcomes).toEqual({ VOIDED: 1 });
      const payment = await t.context.db
        .selectFrom('sandbox_payment')
        .select(['status', 'captured_minor'])
        .where('reference', '=', started.id)
        .executeTakeFirstOrThrow();
      expect(payment).toEqual({ status: 'voided', captured_minor: 0 });
      expect(await quoteFlags(t, quoteId)).toEqual({ is_purchased: 0, is_purchase_initiated: 0 });
    } else {
      // SQLite stores the value as it is.
      expect(report.outcomes).toEqual({ CAPTURED: 1 });
    }
  });

  it('tells refused values from other failures on both engines', () => {
    for (const code of ['22021', '22P05', '22001', '22003', 'SQLITE_TOOBIG', 'SQLITE_MISMATCH'])
      expect(isRefusedValue(Object.assign(new Error('x'), { code }))).toBe(true);
    for (const code of ['23505', '40001', '57P01', '08006', 'SQLITE_BUSY', 'ECONNRESET', undefined])
      expect(isRefusedValue(Object.assign(new Error('x'), { code }))).toBe(false);
    expect(isRefusedValue('22021')).toBe(false);
  });
});
