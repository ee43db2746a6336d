import type { Executor } from '../db/database.js';
import { deleteUnsold, eraseSealed, purgeCandidates, reschedulePurgeCheck, type PurgeCandidate } from './repository.js';

/** What became of a screening's quote, as the purge judges it (screening/purge-port.ts reads it). */
export type QuoteFate =
  /** Bought: the policy's cover ends on this day (YYYY-MM-DD, its latest transaction's). */
  | { readonly kind: 'SOLD'; readonly coverEndsOn: string }
  /** A purchase holds the quote now: look again later. */
  | { readonly kind: 'BUYING' }
  /** Not bought; the quote last changed then. */
  | { readonly kind: 'UNSOLD'; readonly lastChangedAt: string };

export interface QuoteFates {
  /** Unknown quotes are absent (treated as unsold since the screening's last change). */
  fatesOf(quoteIds: readonly string[]): Promise<ReadonlyMap<string, QuoteFate>>;
}

export interface ScreeningPurgeDeps {
  readonly db: Executor;
  readonly fates: QuoteFates;
  readonly clock: () => Date;
  /** SCREENING_RETENTION_DAYS: after the cover's last day, the sold screening's health data goes. */
  readonly retentionDays: number;
  /** SCREENING_UNSOLD_RETENTION_DAYS: after an unsold quote's last change, its screening goes. */
  readonly unsoldRetentionDays: number;
}

export interface ScreeningPurgeReport {
  /** Screenings whose purge check was due. */
  readonly looked: number;
  /** Sold screenings whose sealed columns were erased. */
  readonly erased: number;
  /** Unsold quotes' screenings deleted whole. */
  readonly deleted: number;
}

const DAY_MS = 86_400_000;
/** A sold screening not yet due is looked at again at least this often: a cancellation or a shortened trip ends the cover earlier. */
const SOLD_RECHECK_DAYS = 7;
/** A purchase holding the quote has settled (or been recovered) well within this. */
const BUYING_RECHECK_MS = 3_600_000;

const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY_MS).toISOString();

/** When the screening's sealed data is due to go, and what goes: the sealed columns, or the whole unsold screening. */
function dueOf(
  deps: ScreeningPurgeDeps,
  candidate: PurgeCandidate,
  fate: QuoteFate | undefined,
): { at: string; action: 'ERASE' | 'DELETE' } | undefined {
  if (fate?.kind === 'BUYING') return undefined;
  // The cover's last day is a date in the brand's zone: counting from the next day at 00:00 UTC
  // never starts before it ends (within a day, immaterial beside a retention in days).
  if (fate?.kind === 'SOLD')
    return { at: plusDays(`${fate.coverEndsOn}T00:00:00.000Z`, 1 + deps.retentionDays), action: 'ERASE' };
  const lastChange = fate && fate.lastChangedAt > candidate.updatedAt ? fate.lastChangedAt : candidate.updatedAt;
  return { at: plusDays(lastChange, deps.unsoldRetentionDays), action: 'DELETE' };
}

/**
 * One batch of the purge: each screening whose check is due is erased (sold, retention over),
 * deleted (unsold, retention over) or looked at again later. Idempotent and safe with several
 * processes at once: every write is conditional (not purged yet; unsold: unchanged since read),
 * so a second process finds nothing left to do. Health data is never read here (no unsealing).
 */
export async function purgeBatch(deps: ScreeningPurgeDeps, limit: number): Promise<ScreeningPurgeReport> {
  const now = deps.clock().toISOString();
  const candidates = await purgeCandidates(deps.db, now, limit);
  if (candidates.length === 0) return { looked: 0, erased: 0, deleted: 0 };
  const fates = await deps.fates.fatesOf([...new Set(candidates.map((c) => c.quoteId))]);
  let erased = 0;
  let deleted = 0;
  for (const candidate of candidates) {
    const fate = fates.get(candidate.quoteId);
    const due = dueOf(deps, candidate, fate);
    if (due && due.at <= now) {
      if (due.action === 'ERASE' && (await eraseSealed(deps.db, candidate.id, now))) erased += 1;
      if (due.action === 'DELETE' && (await deleteUnsold(deps.db, candidate.id, candidate.updatedAt))) deleted += 1;
      continue;
    }
    const recheck = due?.action === 'ERASE' ? plusDays(now, SOLD_RECHECK_DAYS) : undefined;
    const next = due === undefined ? new Date(Date.parse(now) + BUYING_RECHECK_MS).toISOString() : due.at;
    await reschedulePurgeCheck(deps.db, candidate.id, recheck !== undefined && recheck < next ? recheck : next);
  }
  return { looked: candidates.length, erased, deleted };
}

/** Batches until none is due (the operator command); `maxBatches` bounds one run. */
export async function purgeDue(
  deps: ScreeningPurgeDeps,
  options: { readonly batchSize: number; readonly maxBatches: number },
): Promise<ScreeningPurgeReport> {
  let total = { looked: 0, erased: 0, deleted: 0 };
  for (let i = 0; i < options.maxBatches; i += 1) {
    const report = await purgeBatch(deps, options.batchSize);
    total = {
      looked: total.looked + report.looked,
      erased: total.erased + report.erased,
      deleted: total.deleted + report.deleted,
    };
    if (report.looked < options.batchSize) break;
  }
  return total;
}
