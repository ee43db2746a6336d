import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { sweepServerConfig } from '../helpers/sweep-server.js';
import { connectDatabase } from '../../src/db/connect.js';
import { startServer } from '../../src/server.js';
import { until } from '../helpers/polling.js';
import { purgeBatch, purgeDue, type QuoteFate, type ScreeningPurgeDeps } from '../../src/screening/purge.js';
import { screeningPurgeDepsFor } from '../../src/screening/purge-port.js';
import type { Executor } from '../../src/db/database.js';
import { CARDS, detailedTrip, NOW, planOf, purchase, purchaseBody, type PurchaseAnswer } from '../purchases/support.js';
import { call, walk } from './support.js';

// The purge of screenings' health data on the app's own ports, its clock controlled by each test.
const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

const DAY = 86_400_000;
/** The Bali trip's last day of cover (test/purchases/support.ts `detailedTrip`). */
const COVER_ENDS = Date.parse('2026-12-23T00:00:00Z');

function depsAt(t: TestApp, at: number, db: Executor = t.context.db): ScreeningPurgeDeps {
  return { ...screeningPurgeDepsFor(t.context), db, clock: () => new Date(at) };
}

/** A brandau COMP quote whose first adult opted in for screening and cover, screened with `conditions`. */
async function screenedQuote(t: TestApp, conditions: string[]) {
  const plan = await planOf(t, 'brandau', 'COMP');
  const trip = detailedTrip(plan.planId);
  const policyHolders = trip.policyHolders.map((h, i) => ({
    ...h,
    travelClearOption: { optionType: 'TRAVELCLEAR', isOptedInForScreening: i === 0, isOptedInForCover: i === 0 },
  }));
  const input = { ...trip, policyHolders };
  const headers = await bearerFor(t, 'brandau');
  const created = await t.app.inject({ method: 'POST', url: '/quotes/v2/brandau/quote', headers, payload: { input } });
  const id = created.json<{ id: string }>().id;
  const refresh = () =>
    t.app.inject({
      method: 'PUT',
      url: `/quotes/v2/brandau/quote/${id}`,
      headers,
      payload: { stage: 'MEDICAL_SCREENING', input },
    });
  await refresh();
  await walk(t, id, conditions);
  await refresh();
  return { id, plan, refresh };
}

async function sold(t: TestApp, conditions: string[]) {
  const quote = await screenedQuote(t, conditions);
  const res = await purchase(t, purchaseBody({ id: quote.id, termIds: quote.plan.termIds }, CARDS.approved));
  const policyNumber = res.json<PurchaseAnswer>().quote.policyNumber;
  expect(policyNumber).toBeDefined();
  return { ...quote, policyNumber: policyNumber ?? '' };
}

const rowOf = (t: TestApp, quoteId: string) =>
  t.context.db.selectFrom('screening').selectAll().where('quote_id', '=', quoteId).executeTakeFirst();

async function travelClearOf(t: TestApp, policyNumber: string) {
  const policy = await t.app.inject({
    method: 'GET',
    url: `/policies/v1/brandau/policies/${policyNumber}`,
    headers: await bearerFor(t, 'brandau'),
  });
  expect(policy.statusCode).toBe(200);
  return policy
    .json<{ travellers: { guid: string; travelClear?: Record<string, unknown> }[] }>()
    .travellers.find((p) => p.guid === 'adult-1')?.travelClear;
}

describe(`the purge of screenings' health data (${DIALECT})`, () => {
  it('erases a sold screening’s sealed columns once the retention after the cover ends is over; the rest reads', async () => {
    const t = getApp();
    const retention = t.context.config.screening.retentionDays;
    const policy = await sold(t, ['TEST_COVERED']);
    const before = await rowOf(t, policy.id);
    const policyBefore = await travelClearOf(t, policy.policyNumber);
    const due = COVER_ENDS + (1 + retention) * DAY;

    // Up to the day it is due (and during the cover): nothing changes.
    for (const at of [NOW.getTime(), COVER_ENDS + DAY, due - 60_000])
      expect(await purgeBatch(depsAt(t, at), 100)).toMatchObject({ erased: 0, deleted: 0 });
    const kept = await rowOf(t, policy.id);
    expect(kept).toMatchObject({ ...before, purge_check_at: expect.any(String) as unknown });
    expect(kept?.conditions_sealed).not.toBeNull();

    const report = await purgeBatch(depsAt(t, due), 100);
    expect(report).toMatchObject({ erased: 1, deleted: 0 });
    const after = await rowOf(t, policy.id);
    expect(after).toMatchObject({ answers_sealed: null, conditions_sealed: null, authorized_person_sealed: null });
    expect(after?.purged_at).toBe(new Date(due).toISOString());
    // What the policy needs stays: reference, date, outcome, amounts.
    for (const column of [
      'reference_number',
      'screening_date',
      'traveller_outcome',
      'medical_premium_minor',
      'excess_minor',
    ] as const)
      expect(after?.[column]).toEqual(before?.[column]);
    expect(await travelClearOf(t, policy.policyNumber)).toEqual(policyBefore);
    // The screening still reads: its result without the conditions.
    const read = await call(t, policy.id, 'GET');
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      status: 'COMPLETED',
      result: { tamisReferenceNumber: before?.reference_number, conditions: [] },
    });
    // Again: nothing left to do.
    expect(await purgeBatch(depsAt(t, due + DAY), 100)).toMatchObject({ erased: 0, deleted: 0 });
  });

  it('deletes an unbought quote’s screening whole after its quiet time; the quote asks for a new one', async () => {
    const t = getApp();
    const quote = await screenedQuote(t, ['TEST_COVERED']);
    const days = t.context.config.screening.unsoldRetentionDays;
    const lastChange = Date.parse((await rowOf(t, quote.id))?.updated_at ?? '');
    const quoteChanged = await t.context.db
      .selectFrom('quote')
      .select('updated_at')
      .where('public_id', '=', quote.id)
      .executeTakeFirstOrThrow();
    const due = Math.max(lastChange, Date.parse(quoteChanged.updated_at)) + days * DAY;
    expect(await purgeDue(depsAt(t, due - 60_000), { batchSize: 1, maxBatches: 10 })).toMatchObject({ deleted: 0 });
    expect(await rowOf(t, quote.id)).toBeDefined();
    expect(await purgeDue(depsAt(t, due), { batchSize: 1, maxBatches: 10 })).toMatchObject({ deleted: 1 });
    expect(await rowOf(t, quote.id)).toBeUndefined();
    expect((await call(t, quote.id, 'GET')).statusCode).toBe(404);
    const refreshed = await quote.refresh();
    expect(
      refreshed.json<{ validation: { errors: { code: string }[] } }>().validation.errors.map((e) => e.code),
    ).toContain('SCREENING_REQUIRED');
  });

  it('purges each due screening exactly once with two processes at once', async () => {
    const t = getApp();
    const policies = [await sold(t, ['TEST_COVERED']), await sold(t, ['TEST_EXCLUDED'])];
    const other = connectDatabase(t.database.database);
    try {
      const at = COVER_ENDS + (2 + t.context.config.screening.retentionDays) * DAY;
      const reports = await Promise.all([
        purgeDue(depsAt(t, at), { batchSize: 1, maxBatches: 100 }),
        purgeDue(depsAt(t, at, other), { batchSize: 1, maxBatches: 100 }),
      ]);
      const erasedNow = reports.reduce((sum, r) => sum + r.erased, 0);
      for (const p of policies) expect((await rowOf(t, p.id))?.conditions_sealed).toBeNull();
      const left = await t.context.db
        .selectFrom('screening')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('purged_at', 'is', null)
        .where('conditions_sealed', 'is not', null)
        .executeTakeFirstOrThrow();
      expect(Number(left.n)).toBe(0);
      // Each of this test's screenings counted once (the first test's was purged already).
      expect(erasedNow).toBe(policies.length);
    } finally {
      await other.destroy();
    }
  });

  it('leaves a quote a purchase holds, and follows a cover moved later or earlier', async () => {
    const t = getApp();
    const quote = await screenedQuote(t, ['TEST_COVERED']);
    const retention = t.context.config.screening.retentionDays;
    let fate: QuoteFate = { kind: 'BUYING' };
    const deps = (at: number): ScreeningPurgeDeps => ({
      ...depsAt(t, at),
      fates: { fatesOf: (ids) => Promise.resolve(new Map(ids.map((id) => [id, fate]))) },
    });
    const late = Date.parse('2030-01-01T00:00:00Z');
    // Held by a purchase: untouched, looked at again in an hour.
    expect(await purgeBatch(deps(late), 100)).toMatchObject({ erased: 0, deleted: 0 });
    expect((await rowOf(t, quote.id))?.purge_check_at).toBe(new Date(late + 3_600_000).toISOString());
    // Sold with a cover amended to end later: not due yet at the old date, looked at again within a week.
    fate = { kind: 'SOLD', coverEndsOn: '2029-06-30' };
    const oldDue = COVER_ENDS + (1 + retention) * DAY;
    const checkAt = Math.max(oldDue, late + 3_600_000);
    expect(await purgeBatch(deps(checkAt), 100)).toMatchObject({ erased: 0 });
    expect((await rowOf(t, quote.id))?.purge_check_at).toBe(new Date(checkAt + 7 * DAY).toISOString());
    // Cancelled: the cover ends earlier, and the next look (within the week) erases.
    fate = { kind: 'SOLD', coverEndsOn: '2026-12-01' };
    expect(await purgeBatch(deps(checkAt + 7 * DAY), 100)).toMatchObject({ erased: 1 });
    expect((await rowOf(t, quote.id))?.conditions_sealed).toBeNull();
  });

  it('is done by every server’s recovery sweep', async () => {
    const t = getApp();
    const policy = await sold(t, ['TEST_COVERED']);
    const at = COVER_ENDS + (3 + t.context.config.screening.retentionDays) * DAY;
    const config = sweepServerConfig(t.database.database);
    const db = connectDatabase(t.database.database);
    try {
      const server = await startServer(config, { db, logger: false, clock: () => new Date(at) });
      try {
        await until(async () => (await rowOf(t, policy.id))?.purged_at != null, 'the sweep to purge the screening');
      } finally {
        await server.close();
      }
    } finally {
      await db.destroy();
    }
    expect(await rowOf(t, policy.id)).toMatchObject({ conditions_sealed: null, answers_sealed: null });
  });
});
