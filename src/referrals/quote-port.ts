import type { CatalogueReader } from '../catalogue/reader.js';
import type { Executor, Tx } from '../db/database.js';
import { recordEvent } from '../events/repository.js';
import { newRecordId } from '../kernel/ids/ordered-ids.js';
import type { QuoteReferrals, ReferralJudgement, ReferralRequest } from '../quotes/ports.js';
import { ReferralChanged } from './errors.js';
import { referralEvent } from './events.js';
import { judgeInput, referralView } from './judge.js';
import type { Referral } from './model.js';
import { dropReferral, openReferral, referralOfQuote } from './repository.js';
import { appliesTo, referralChange, referralFingerprint, type ReferralChange } from './rules.js';

/** Rolls back a transaction whose quote write found the quote moved (the caller answers that). */
class QuoteWriteRefused extends Error {}

/** Runs `work` in a transaction, or in the caller's when `db` is one already (a seeding). */
async function inTransaction<T>(db: Executor, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Tx) : db.transaction().execute(work);
}

/** A judgement that changes nothing stored: the quote's write alone. */
function plain(
  db: Executor,
  referral: Referral | undefined,
  loading?: ReferralJudgement['loading'],
): ReferralJudgement {
  return {
    ...(referral ? { referral: referralView(referral) } : {}),
    ...(loading ? { loading } : {}),
    store: (write) => write(db),
  };
}

/**
 * The referral rules over a quote being stored (quotes/service.ts calls it after pricing): a
 * rule firing opens (or reopens) the quote's referral and records `quote.referred`, in the
 * quote's own transaction. Only a priced quote with a chosen plan is judged: one without can be
 * neither referred nor bought.
 */
export function quoteReferralsFor(deps: {
  readonly db: Executor;
  readonly catalogue: CatalogueReader;
}): QuoteReferrals {
  const { db } = deps;
  return {
    async judge(request: ReferralRequest): Promise<ReferralJudgement> {
      const existing = request.isNew ? undefined : await referralOfQuote(db, request.quoteId);
      const fingerprint = referralFingerprint(request.input);
      const planId = request.input.planId ?? 0;
      const applying = appliesTo(existing, fingerprint) ? existing : undefined;
      if (planId === 0 || !request.pricing.prices.some((p) => p.planId === planId)) return plain(db, applying);
      const { reasons, currency } = await judgeInput(deps, request);
      const change = referralChange(existing, reasons, fingerprint);
      if (change.kind === 'keep') {
        const loading =
          applying?.status === 'APPROVED' && (applying.loadingPercentage ?? 0) > 0
            ? { planId, percentage: applying.loadingPercentage ?? 0 }
            : undefined;
        return plain(db, applying, loading);
      }
      const at = request.now.toISOString();
      const opened: Referral | undefined =
        change.kind === 'open'
          ? {
              id: existing?.id ?? newRecordId(),
              quoteId: request.quoteId,
              brandCode: request.brandCode,
              partnerId: request.partnerId,
              status: 'REFERRED',
              reasonCodes: change.reasonCodes,
              fingerprint,
              referredAt: at,
              version: (existing?.version ?? 0) + 1,
            }
          : undefined;
      return {
        ...(opened ? { referral: referralView(opened) } : {}),
        store: (write) => storeWithChange(db, write, { change, existing, opened, currency, at }),
      };
    },
    async viewOf(quote) {
      const referral = await referralOfQuote(db, quote.id);
      return appliesTo(referral, referralFingerprint(quote.input)) && referral ? referralView(referral) : undefined;
    },
  };
}

async function storeWithChange<T>(
  db: Executor,
  write: (db: Executor) => Promise<T | undefined>,
  plan: {
    change: Exclude<ReferralChange, { kind: 'keep' }>;
    existing: Referral | undefined;
    opened: Referral | undefined;
    currency: string;
    at: string;
  },
): Promise<T | undefined> {
  try {
    return await inTransaction(db, async (tx) => {
      const written = await write(tx);
      if (written === undefined) throw new QuoteWriteRefused();
      const { existing, opened } = plan;
      if (opened) {
        if (!(await openReferral(tx, { ...opened, at: plan.at }, existing?.version))) throw new ReferralChanged();
        const event = referralEvent(opened, plan.currency, plan.at);
        if (event) await recordEvent(tx, event);
      } else if (existing && !(await dropReferral(tx, existing.id, existing.version))) {
        throw new ReferralChanged();
      }
      return written;
    });
  } catch (error) {
    if (error instanceof QuoteWriteRefused) return undefined;
    throw error;
  }
}
