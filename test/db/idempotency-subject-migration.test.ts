import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest } from '../../src/db/migrate.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { confirm, NOW, previewCancellation, type ChangeAnswer } from '../policy-changes/support.js';
import { CARDS, purchase, purchaseBody, readyQuote, type PurchaseAnswer } from '../purchases/support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

/** The migration that moved the links from the purchase and the change to the key. */
const MIGRATION = '20261130_1100_idempotency_key_subject';

describe(`the key's subject migration keeps every link (${DIALECT})`, () => {
  // Down drops the subjects: up rebuilds them from the purchase's and the change's links alone.
  it('down: each purchase and change gets the id of the key naming it; up: each key names them again', async () => {
    const t = getApp();
    const { db } = t.context;
    const bought = await purchase(t, purchaseBody(await readyQuote(t), CARDS.approved), { key: 'migration-purchase' });
    const policyNumber = bought.json<PurchaseAnswer>().quote.policyNumber ?? '';
    const preview = (await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' })).json<ChangeAnswer>();
    const confirmed = await confirm(t, policyNumber, 'cancellations', preview.id!, { key: 'migration-cancel' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const keys = async () =>
      Object.fromEntries(
        (
          await db
            .selectFrom('idempotency_key')
            .select(['id', 'idempotency_key', 'subject'])
            .where('idempotency_key', 'like', 'migration-%')
            .execute()
        ).map((k) => [k.idempotency_key, k]),
      );
    const before = await keys();
    const attempt = await db
      .selectFrom('purchase')
      .select('public_id')
      .where('policy_number', '=', policyNumber)
      .executeTakeFirstOrThrow();
    expect(before['migration-purchase']?.subject).toBe(`purchase:${attempt.public_id}`);
    expect(before['migration-cancel']?.subject).toBe(`policy-change:${preview.id}:1`);

    // Down to just before it (later migrations first), then up again to the latest.
    const reverted: string[] = [];
    while (!reverted.includes(MIGRATION)) {
      const down = await migrateDown(db);
      expect(down).toHaveLength(1);
      reverted.push(...down);
    }
    try {
      const { rows: purchases } = await sql<{ id: number | null }>`
        select idempotency_key_id as id from purchase where public_id = ${attempt.public_id}`.execute(db);
      const { rows: changes } = await sql<{ id: number | null }>`
        select idempotency_key_id as id from policy_change where public_id = ${preview.id}`.execute(db);
      expect(purchases.map((r) => Number(r.id))).toEqual([before['migration-purchase']?.id]);
      expect(changes.map((r) => Number(r.id))).toEqual([before['migration-cancel']?.id]);
    } finally {
      expect(await migrateToLatest(db)).toEqual([...reverted].reverse());
    }
    expect(await keys()).toEqual(before);
  });
});
