import type { Executor } from '../db/database.js';
import { coverEndsOfQuotes } from '../policies/repository-read.js';
import { purchaseStatesOfQuotes } from '../quotes/repository.js';
import type { QuoteFate, QuoteFates, ScreeningPurgeDeps } from './purge.js';
import type { AppContext } from '../context.js';

/** The purge's view of quotes: the policies' cover ends and the quotes' purchase states. */
export function quoteFatesFrom(db: Executor): QuoteFates {
  return {
    async fatesOf(quoteIds) {
      const [coverEnds, states] = await Promise.all([
        coverEndsOfQuotes(db, quoteIds),
        purchaseStatesOfQuotes(db, quoteIds),
      ]);
      const fates = new Map<string, QuoteFate>();
      for (const quoteId of quoteIds) {
        const coverEndsOn = coverEnds.get(quoteId);
        const state = states.get(quoteId);
        if (coverEndsOn !== undefined) fates.set(quoteId, { kind: 'SOLD', coverEndsOn });
        // Bought but its policy not visible yet, or a purchase holding it: look again later.
        else if (state?.bought === true || state?.buying === true) fates.set(quoteId, { kind: 'BUYING' });
        else if (state) fates.set(quoteId, { kind: 'UNSOLD', lastChangedAt: state.updatedAt });
      }
      return fates;
    },
  };
}

/** The purge's dependencies in a running process (the server's sweep, the `screening purge` command). */
export function screeningPurgeDepsFor(context: AppContext): ScreeningPurgeDeps {
  return {
    db: context.db,
    fates: quoteFatesFrom(context.db),
    clock: context.clock,
    retentionDays: context.config.screening.retentionDays,
    unsoldRetentionDays: context.config.screening.unsoldRetentionDays,
  };
}
