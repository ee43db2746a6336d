import { randomUUID } from 'node:crypto';
import { findPartner } from '../../src/auth/accounts.js';
import { loadConfig } from '../../src/config/config.js';
import type { AppContext } from '../../src/context.js';
import { connectDatabase } from '../../src/db/connect.js';
import type { PolicyIssueRequest } from '../../src/policies/issue-request.js';
import { issuePolicyOf } from '../../test/helpers/issued-policy.js';
import { prepareDatabase } from '../../src/server.js';
import { BRAND_PROFILES } from './profiles.js';
import { seedPolicies } from './policies.js';

/** What read scenarios need from the database the server will open. */
export interface BenchFixtures {
  /** Policies of demo partner DEMOA under `brandau`, issued by the real issuance code. */
  readonly policyNumbers: readonly string[];
}

export const FIXTURE_PARTNER = 'DEMOA';

/** A purchase as the purchase flow hands it to issuance: two adults, one dependent, 14 days. */
function purchase(partnerId: number, userId: number): PolicyIssueRequest {
  const plan = BRAND_PROFILES[0]!.plans[0]!;
  return {
    brandCode: 'brandau',
    partnerId,
    customerUserId: 0,
    createdByUserId: userId,
    quoteId: randomUUID(),
    plan,
    homeAddress: {
      addressLine1: '1 George St',
      postalCode: '2000',
      provinceCode: 'NSW',
      provinceName: 'New South Wales',
      countryCode: 'AU',
      countryName: 'Australia',
    },
    presentationTimeZoneCode: 'Australia/Sydney',
    travellers: [
      {
        guid: 'adult-1',
        isPrimary: true,
        title: 'Ms',
        firstName: 'Ada',
        surname: 'Lovelace',
        age: 42,
        dateOfBirth: '1984-01-07',
        emailAddress: 'ada@example.com',
        mobileNumber: '+61 400 000 000',
      },
      { guid: 'adult-2', firstName: 'Charles', surname: 'Babbage', age: 40, dateOfBirth: '1986-03-15' },
    ],
    dependents: [{ guid: 'child-1', firstName: 'Byron', surname: 'Lovelace', age: 9, dateOfBirth: '2017-05-01' }],
    destinations: { codes: ['IDN'], names: ['Indonesia (including Bali)'], region: 'Asia' },
    departureDate: '2026-12-10',
    coverEndDate: '2026-12-23',
    amounts: {
      premium: 61_240,
      discount: 0,
      taxes: [
        { name: 'GST', amount: 6_124 },
        { name: 'Stamp Duty', amount: 6_063 },
      ],
      donation: 0,
      total: 73_427,
    },
    options: [
      { optionTypeId: 1, name: 'Cruise cover', displayOrder: 1 },
      { optionTypeId: 2, name: 'Snow sports', displayOrder: 2 },
    ],
    specifiedItems: [],
    excessMinor: 25_000,
    externalMemberships: [],
    client: { ipAddress: '203.0.113.9', ipAddressCountry: 'AU', userAgent: 'partner-site/1.0' },
    paymentReference: `pay_${randomUUID().slice(0, 8)}`,
  };
}

/**
 * Prepares the database the server is about to open, exactly as a server start would
 * (migrations, demo catalogue and partners), issues `samplePolicies` policies through the real
 * issuing commit (test/helpers/issued-policy.ts), and optionally bulk-seeds `extraPolicies` more (scale runs).
 */
export async function prepareBenchDatabase(
  env: Record<string, string>,
  extraPolicies = 0,
  onProgress?: (done: number) => void,
): Promise<BenchFixtures> {
  const config = loadConfig({ ...process.env, ...env });
  const db = connectDatabase(config.database);
  const context: AppContext = { config, db, clock: () => new Date() };
  try {
    await prepareDatabase(context);
    if (extraPolicies > 0) await seedPolicies(db, { count: extraPolicies, ...(onProgress ? { onProgress } : {}) });
    const partner = await findPartner(context, FIXTURE_PARTNER);
    if (!partner) throw new Error(`demo partner ${FIXTURE_PARTNER} missing: DEMO_DATA must be on`);
    const user = await db
      .selectFrom('app_user')
      .select('id')
      .where('partner_id', '=', partner.id)
      .executeTakeFirstOrThrow();
    const policyNumbers: string[] = [];
    for (let i = 0; i < 10; i++) {
      const issued = await issuePolicyOf(db, purchase(partner.id, user.id), new Date());
      policyNumbers.push(issued.policyNumber);
    }
    return { policyNumbers };
  } finally {
    await db.destroy();
  }
}

/** Adds `count` bulk-seeded policies to a database already prepared (scale runs grow one database). */
export async function addPolicies(
  env: Record<string, string>,
  count: number,
  onProgress?: (done: number) => void,
): Promise<void> {
  const config = loadConfig({ ...process.env, ...env });
  const db = connectDatabase(config.database);
  try {
    await seedPolicies(db, { count, seed: Date.now() % 1_000_000, ...(onProgress ? { onProgress } : {}) });
  } finally {
    await db.destroy();
  }
}
