import { sql } from 'kysely';
import { catalogueReaderFor } from '../../src/catalogue/reader.js';
import { loadConfig } from '../../src/config/config.js';
import type { AppContext } from '../../src/context.js';
import { connectDatabase } from '../../src/db/connect.js';
import type { BrandCode } from '../../src/kernel/brands.js';
import { quotePortsFor } from '../../src/quotes/live-ports.js';
import { liveScreeningEngines } from '../../src/screening/live-engine.js';
import type { AuthorizedPerson } from '../../src/screening/screening.js';
import { answerScreening, completeScreening, startScreening, type ScreeningDeps } from '../../src/screening/service.js';
import { benchActor } from './quotes.js';

/** Screenings per transaction: one durable commit for many (the server is idle meanwhile). */
const BATCH = 200;

/** One call's answers, as the API's `answers` body carries them. */
export type AnswerBatch = readonly { questionId: string; choiceCodes: readonly string[] }[];

export interface ScreeningSeed {
  readonly brandCode: BrandCode;
  /** The login whose partner owns the quotes. */
  readonly login: string;
  /** Each a quote and a traveller of it who opted in for screening. */
  readonly travellers: readonly { readonly quoteId: string; readonly guid: string }[];
  readonly authorizedPerson: AuthorizedPerson;
  /** The answers calls, in order, after the start. */
  readonly batches: readonly AnswerBatch[];
  /** Complete the screening after the last batch. */
  readonly complete: boolean;
  readonly onProgress?: (done: number) => void;
}

/**
 * Screenings made in the bench process through the screening service the routes call (start,
 * answers, complete: the same engine, checks, sealing and rows), in batches of transactions
 * rather than three to five HTTP requests and commits each, as `seedQuotes` makes quotes.
 */
export async function seedScreenings(env: Record<string, string>, seed: ScreeningSeed): Promise<void> {
  const config = loadConfig({ ...process.env, ...env });
  const db = connectDatabase(config.database);
  const context: AppContext = { config, db, clock: () => new Date() };
  try {
    const actor = await benchActor(db, seed.login);
    // As in seedQuotes: the catalogue loaded before any transaction holds SQLite's one connection.
    await catalogueReaderFor(db, { refreshMs: Number.POSITIVE_INFINITY }).snapshot();
    const engineFor = liveScreeningEngines(context);
    const catalogue = quotePortsFor(context).catalogue;
    let done = 0;
    while (done < seed.travellers.length) {
      const batch = seed.travellers.slice(done, done + BATCH);
      await db.transaction().execute(async (tx) => {
        const deps: ScreeningDeps = {
          db: tx,
          clock: context.clock,
          secret: config.auth.keyEncryptionSecret,
          engineFor,
          catalogue,
        };
        for (const { quoteId, guid } of batch) {
          const at = [seed.brandCode, quoteId, guid] as const;
          await startScreening(deps, actor, ...at, seed.authorizedPerson);
          for (const answers of seed.batches) await answerScreening(deps, actor, ...at, answers);
          if (seed.complete) await completeScreening(deps, actor, ...at);
        }
      });
      done += batch.length;
      seed.onProgress?.(done);
    }
    if (config.database.kind === 'sqlite') await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
  } finally {
    await db.destroy();
  }
}
