import { describe, expect, it } from 'vitest';
import { findPartner } from '../../src/auth/accounts.js';
import { getPolicySummary } from '../../src/policies/service.js';
import { issuePolicyOf } from '../helpers/issued-policy.js';
import { seedPolicies } from '../../bench/seed/policies.js';
import { BRAND_PROFILES } from '../../bench/seed/profiles.js';
import { useTestApp } from '../helpers/app.js';
import { ensureTestUser, TEST_PARTNERS } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { issueRequest } from '../policies/fixtures.js';

// The bulk seeder behind `npm run bench:seed` and `--scale`: what it writes must read back
// through the real service, and numbers issued afterwards must not collide with seeded ones.
const getApp = useTestApp();

describe(`bulk policy seeding (${DIALECT})`, () => {
  it('writes complete policies that the service reads, and leaves the number counters ahead of them', async () => {
    const t = getApp();
    await ensureTestUser(t, 'brandau', 'A');
    await ensureTestUser(t, 'nomad', 'B');
    const progress: number[] = [];
    await seedPolicies(t.context.db, { count: 120, batchSize: 50, onProgress: (done) => progress.push(done) });
    expect(progress).toEqual([50, 100, 120]);

    const db = t.context.db;
    const headers = await db
      .selectFrom('policy_header')
      .select(['id', 'policy_number', 'brand_code', 'partner_id', 'quote_id'])
      .execute();
    expect(headers).toHaveLength(120);
    expect(new Set(headers.map((h) => h.policy_number)).size).toBe(120);
    expect(new Set(headers.map((h) => h.brand_code)).size).toBeGreaterThan(1);
    expect(new Set(headers.map((h) => h.partner_id)).size).toBe(2);
    const quotes = await db.selectFrom('quote').select(['public_id', 'policy_number']).execute();
    expect(quotes.map((q) => q.public_id).sort()).toEqual(headers.map((h) => h.quote_id).sort());

    // Searchable as in life (issue 31): varied surnames, name-based e-mails, booking references.
    const primaries = await db
      .selectFrom('policy_traveller')
      .select(['surname', 'email_address'])
      .where('is_primary', '=', 1)
      .execute();
    expect(primaries).toHaveLength(120);
    expect(new Set(primaries.map((p) => p.surname)).size).toBeGreaterThan(60);
    expect(primaries.every((p) => /^[^@\s]+@[a-z.]+$/.test(p.email_address ?? ''))).toBe(true);
    const references = await db.selectFrom('policy_header').select('booking_reference').execute();
    const withReference = references.flatMap((r) => (r.booking_reference ? [r.booking_reference] : []));
    expect(withReference.length).toBeGreaterThan(60);
    expect(new Set(withReference).size).toBe(withReference.length);

    // Every seeded policy reads back through the real service (header, detail, people, money).
    for (const header of headers.slice(0, 10)) {
      const summary = await getPolicySummary(db, {
        policyNumber: header.policy_number,
        brandCode: header.brand_code as 'brandau',
        partnerId: header.partner_id,
      });
      expect(summary.policyNumber).toBe(header.policy_number);
    }

    // A policy issued afterwards under a seeded counter key gets the next number, not a taken one.
    const partner = await findPartner(t.context, TEST_PARTNERS.A);
    const plan = BRAND_PROFILES[0]!.plans[0]!;
    const issued = await issuePolicyOf(db, issueRequest({ partnerId: partner!.id, plan }), new Date());
    expect(headers.map((h) => h.policy_number)).not.toContain(issued.policyNumber);
    const sameSeries = headers
      .filter((h) => h.policy_number.slice(0, 6) === issued.policyNumber.slice(0, 6))
      .map((h) => h.policy_number);
    expect(sameSeries.length).toBeGreaterThan(0);
    expect(sameSeries.every((n) => n < issued.policyNumber)).toBe(true);
  });
});
