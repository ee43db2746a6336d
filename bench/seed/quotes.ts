import { sql } from 'kysely';
import type { Actor } from '../../src/auth/principal.js';
import { catalogueReaderFor } from '../../src/catalogue/reader.js';
import { loadConfig } from '../../src/config/config.js';
import type { AppContext } from '../../src/context.js';
import { connectDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import type { BrandCode } from '../../src/kernel/brands.js';
import { quotePortsFor, referralsFor } from '../../src/quotes/live-ports.js';
import type { QuoteRequest } from '../../src/quotes/schemas.js';
import { createQuote } from '../../src/quotes/service.js';

/** The login's user as the services see the caller (its partner owns what is seeded). */
export async function benchActor(db: Db, login: string): Promise<Actor> {
  return db
    .selectFrom('app_user')
    .innerJoin('partner', 'partner.id', 'app_user.partner_id')
    .select([
      'app_user.id as userId',
      'app_user.login as username',
      'partner.id as partnerId',
      'partner.code as partnerCode',
    ])
    .where('app_user.login_key', '=', login.toLowerCase())
    .executeTakeFirstOrThrow();
}

/** Quotes per transaction: one durable commit for many quotes (the server is idle meanwhile). */
const BATCH = 500;

export interface QuoteSeed {
  readonly brandCode: BrandCode;
  /** The login whose partner owns the quotes (its user is recorded as creator). */
  readonly login: string;
  /** The body a partner would POST (already valid JSON of the contract's shape). */
  readonly body: QuoteRequest;
  readonly count: number;
  readonly onProgress?: (done: number) => void;
}

/**
 * Creates quotes in the bench process through the quotes service the route calls (`createQuote`:
 * the same validation, evaluation and pricing, the same row), in batches of transactions rather
 * than one HTTP request and one commit each: 8,000 quotes through the API took 40 s of server
 * CPU, which also filled the server's CPU profile of the run that followed.
 */
export async function seedQuotes(env: Record<string, string>, seed: QuoteSeed): Promise<string[]> {
  const config = loadConfig({ ...process.env, ...env });
  const db = connectDatabase(config.database);
  const context: AppContext = { config, db, clock: () => new Date() };
  try {
    const user = await benchActor(db, seed.login);
    // The quotes service reads the catalogue through a reader on this handle; inside a
    // transaction SQLite's one connection is busy, so the snapshot is loaded first and not
    // refreshed during the seeding (nothing imports meanwhile).
    await catalogueReaderFor(db, { refreshMs: Number.POSITIVE_INFINITY }).snapshot();
    const ports = quotePortsFor(context);
    const ids: string[] = [];
    while (ids.length < seed.count) {
      const size = Math.min(BATCH, seed.count - ids.length);
      const batch = await db.transaction().execute(async (tx) => {
        const created: string[] = [];
        for (let i = 0; i < size; i++) {
          const quote = await createQuote(
            { db: tx, ports, clock: context.clock, referrals: referralsFor(context, tx) },
            user,
            seed.brandCode,
            seed.body,
          );
          if (!quote.id) throw new Error('seeded quote has no id');
          created.push(quote.id);
        }
        return created;
      });
      ids.push(...batch);
      seed.onProgress?.(ids.length);
    }
    // Otherwise the server's first commits would copy the seeding's whole WAL into the database
    // file (SQLite checkpoints synchronously, on the event loop) while the clock runs.
    if (config.database.kind === 'sqlite') await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    return ids;
  } finally {
    await db.destroy();
  }
}
