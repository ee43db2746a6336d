import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config/config.js';
import { connectDatabase } from '../../src/db/connect.js';
import { PasswordHasher } from '../../src/auth/passwords.js';
import { findOperatorByUsername, insertOperator } from '../../src/operators/repository.js';

// Made-up referrals for the console's queue at scale (issue 31): about one open referral per
// 500 stored policies and as many decided ones, written directly as rows (not in production) on
// stored quotes, so that a referral's page opens.

export const BENCH_OPERATOR = { username: 'bench-underwriter', password: 'Bench-underwriter-password' };

const BATCH = 500;
const REASONS = ['["AGE_OVER_LIMIT"]', '["MEDICAL_CONDITION"]', '["TRIP_LENGTH"]', '["DESTINATION_RISK"]'];

/** Adds `count` referrals (every other one decided) referred over the last 30 days. */
export async function addReferrals(env: Record<string, string>, count: number): Promise<void> {
  const config = loadConfig({ ...process.env, ...env });
  const db = connectDatabase(config.database);
  try {
    const partner = await db.selectFrom('partner').select('id').orderBy('id').executeTakeFirstOrThrow();
    const now = Date.now();
    for (let done = 0; done < count; done += BATCH) {
      const size = Math.min(BATCH, count - done);
      // Stored quotes without a referral, so that a referral's page finds its quote (the rest: made-up ids).
      const quotes = await db
        .selectFrom('quote as q')
        .select(['q.public_id', 'q.brand_code', 'q.partner_id'])
        .where((eb) =>
          eb.not(eb.exists(eb.selectFrom('referral as r').select('r.id').whereRef('r.quote_id', '=', 'q.public_id'))),
        )
        .orderBy('q.id', 'desc')
        .limit(size)
        .execute();
      const rows = Array.from({ length: size }, (_, i) => {
        const n = done + i;
        const quote = quotes[i];
        const referredAt = new Date(now - Math.floor(Math.random() * 30 * 86_400_000)).toISOString();
        const decided = n % 2 === 1;
        return {
          public_id: randomUUID(),
          quote_id: quote?.public_id ?? randomUUID(),
          brand_code: quote?.brand_code ?? 'brandau',
          partner_id: quote?.partner_id ?? partner.id,
          status: decided
            ? n % 4 === 1
              ? 'APPROVED'
              : 'DECLINED'
            : n % 10 === 0
              ? 'INFORMATION_REQUESTED'
              : 'REFERRED',
          reason_codes_json: REASONS[n % REASONS.length]!,
          fingerprint: randomUUID(),
          referred_at: referredAt,
          decided_at: decided ? new Date(now).toISOString() : null,
          decline_reason: decided && n % 4 === 3 ? 'Outside appetite' : null,
          version: decided ? 2 : 1,
        };
      });
      await db.insertInto('referral').values(rows).execute();
    }
  } finally {
    await db.destroy();
  }
}

/** The bench's underwriter (no second factor: not production); created once. */
export async function ensureBenchOperator(env: Record<string, string>): Promise<void> {
  const config = loadConfig({ ...process.env, ...env });
  const db = connectDatabase(config.database);
  try {
    if (await findOperatorByUsername(db, BENCH_OPERATOR.username)) return;
    await insertOperator(db, {
      username: BENCH_OPERATOR.username,
      displayName: 'Bench underwriter',
      role: 'UNDERWRITER',
      passwordHash: await new PasswordHasher(config.auth.argon2).hash(BENCH_OPERATOR.password),
      isDemo: false,
      at: new Date().toISOString(),
    });
  } finally {
    await db.destroy();
  }
}
