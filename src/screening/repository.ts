import type { Executor } from '../db/database.js';
import { seal, unseal } from '../kernel/crypto/seal.js';
import type { ConditionAssessment, TravellerOutcome } from './model.js';
import type { AuthorizedPerson, ScreeningResult, StoredScreening } from './screening.js';
import type { ScreeningRow } from './tables.js';

/**
 * Every query of the `screening` table. The authorized person, the answers and the assessed
 * conditions are sealed (AES-256-GCM, key from KEY_ENCRYPTION_SECRET), each under its own `info`
 * and bound to the row id, so a sealed value copied to another row or column does not open.
 */
const INFO = {
  person: 'screening authorized person',
  answers: 'screening answers',
  conditions: 'screening conditions',
} as const;

function sealJson(secret: string, info: string, id: string, value: unknown): string {
  return seal(secret, { info, bound: id }, JSON.stringify(value));
}

function unsealJson(secret: string, info: string, id: string, sealed: string | null): unknown {
  if (sealed === null) return undefined;
  const text = unseal(secret, { info, bound: id }, sealed);
  if (text === undefined) throw new Error(`screening ${id}: a sealed column does not open with the configured secret`);
  return JSON.parse(text) as unknown;
}

/** A screening as the quote reads it: everything but the answers (never unsealed there). */
export type ScreeningWithoutAnswers = Omit<StoredScreening, 'answers'>;

function toStored(secret: string, row: ScreeningRow): StoredScreening {
  return {
    ...withoutAnswers(secret, row),
    answers:
      (unsealJson(secret, INFO.answers, row.id, row.answers_sealed) as StoredScreening['answers'] | undefined) ?? {},
  };
}

function withoutAnswers(secret: string, row: ScreeningRow): ScreeningWithoutAnswers {
  const result: ScreeningResult | undefined =
    row.reference_number === null || row.traveller_outcome === null
      ? undefined
      : {
          referenceNumber: row.reference_number,
          screeningDate: row.screening_date ?? '',
          assessment: {
            outcome: row.traveller_outcome as TravellerOutcome,
            score: row.score ?? 1,
            conditions:
              (unsealJson(secret, INFO.conditions, row.id, row.conditions_sealed) as
                ConditionAssessment[] | undefined) ?? [],
            medicalPremiumMinor: row.medical_premium_minor ?? 0,
            excessMinor: row.excess_minor ?? 0,
            signposting: row.signposting === 1,
          },
        };
  return {
    id: row.id,
    quoteId: row.quote_id,
    partnerId: row.partner_id,
    travellerGuid: row.traveller_guid,
    status: row.status as StoredScreening['status'],
    catalogueVersion: row.catalogue_version,
    tripFingerprint: row.trip_fingerprint,
    currencyCode: row.currency_code,
    authorizedPerson: unsealJson(secret, INFO.person, row.id, row.authorized_person_sealed) as
      AuthorizedPerson | undefined,
    ...(result ? { result } : {}),
    revision: row.revision,
    createdAt: row.created_at,
  };
}

export async function findScreening(
  db: Executor,
  secret: string,
  quoteId: string,
  travellerGuid: string,
): Promise<StoredScreening | undefined> {
  const row = await db
    .selectFrom('screening')
    .selectAll()
    .where('quote_id', '=', quoteId)
    .where('traveller_guid', '=', travellerGuid)
    .executeTakeFirst();
  return row ? toStored(secret, row) : undefined;
}

/** Every screening of a quote, in traveller order of storage, without its answers (the quote needs none). */
export async function screeningsOfQuoteRows(
  db: Executor,
  secret: string,
  quoteId: string,
): Promise<ScreeningWithoutAnswers[]> {
  const rows = await db
    .selectFrom('screening')
    .selectAll()
    .where('quote_id', '=', quoteId)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => withoutAnswers(secret, row));
}

/** Starts a traveller's screening, replacing any earlier one (a stale or redone screening). */
export async function replaceScreening(
  db: Executor,
  secret: string,
  s: Omit<StoredScreening, 'result' | 'revision' | 'answers'>,
): Promise<void> {
  await db
    .deleteFrom('screening')
    .where('quote_id', '=', s.quoteId)
    .where('traveller_guid', '=', s.travellerGuid)
    .execute();
  await db
    .insertInto('screening')
    .values({
      id: s.id,
      quote_id: s.quoteId,
      partner_id: s.partnerId,
      traveller_guid: s.travellerGuid,
      status: 'IN_PROGRESS',
      catalogue_version: s.catalogueVersion,
      trip_fingerprint: s.tripFingerprint,
      currency_code: s.currencyCode,
      authorized_person_sealed: sealJson(secret, INFO.person, s.id, s.authorizedPerson),
      answers_sealed: sealJson(secret, INFO.answers, s.id, {}),
      conditions_sealed: null,
      reference_number: null,
      traveller_outcome: null,
      score: null,
      medical_premium_minor: null,
      excess_minor: null,
      signposting: null,
      screening_date: null,
      revision: 1,
      created_at: s.createdAt,
      updated_at: s.createdAt,
      // The purge sweep's first look schedules it (screening/purge.ts).
      purge_check_at: s.createdAt,
      purged_at: null,
    })
    .execute();
}

/** Stores the answers so far; false when another request changed the screening first. */
export async function saveAnswers(db: Executor, secret: string, s: StoredScreening, at: string): Promise<boolean> {
  const done = await db
    .updateTable('screening')
    .set({
      answers_sealed: sealJson(secret, INFO.answers, s.id, s.answers),
      revision: s.revision + 1,
      updated_at: at,
    })
    .where('id', '=', s.id)
    .where('revision', '=', s.revision)
    .where('status', '=', 'IN_PROGRESS')
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

/** Records the result; false when the screening was completed or changed by another request first. */
export async function saveResult(
  db: Executor,
  secret: string,
  s: StoredScreening,
  result: ScreeningResult,
  at: string,
): Promise<boolean> {
  const a = result.assessment;
  const done = await db
    .updateTable('screening')
    .set({
      status: 'COMPLETED',
      conditions_sealed: sealJson(secret, INFO.conditions, s.id, a.conditions),
      reference_number: result.referenceNumber,
      screening_date: result.screeningDate,
      traveller_outcome: a.outcome,
      score: a.score,
      medical_premium_minor: a.medicalPremiumMinor,
      excess_minor: a.excessMinor,
      signposting: a.signposting ? 1 : 0,
      revision: s.revision + 1,
      updated_at: at,
    })
    .where('id', '=', s.id)
    .where('revision', '=', s.revision)
    .where('status', '=', 'IN_PROGRESS')
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

/** A screening the purge sweep looks at: which quote, and when it last changed. */
export interface PurgeCandidate {
  readonly id: string;
  readonly quoteId: string;
  readonly updatedAt: string;
}

/** Up to `limit` screenings still holding sealed data whose purge check is due at `now`. */
export async function purgeCandidates(db: Executor, now: string, limit: number): Promise<PurgeCandidate[]> {
  const rows = await db
    .selectFrom('screening')
    .select(['id', 'quote_id', 'updated_at'])
    .where('purge_check_at', '<=', now)
    .where('purged_at', 'is', null)
    .orderBy('purge_check_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, quoteId: r.quote_id, updatedAt: r.updated_at }));
}

/** Next look at a screening no earlier than `at` (a process that purged it first wins: purged rows stay). */
export async function reschedulePurgeCheck(db: Executor, id: string, at: string): Promise<void> {
  await db
    .updateTable('screening')
    .set({ purge_check_at: at })
    .where('id', '=', id)
    .where('purged_at', 'is', null)
    .execute();
}

/**
 * Erases a sold screening's sealed columns (answers, conditions, authorized person); reference,
 * date, outcome and amounts stay for the policy. False when already purged (by another process).
 */
export async function eraseSealed(db: Executor, id: string, at: string): Promise<boolean> {
  const done = await db
    .updateTable('screening')
    .set({
      answers_sealed: null,
      conditions_sealed: null,
      authorized_person_sealed: null,
      purged_at: at,
      purge_check_at: null,
    })
    .where('id', '=', id)
    .where('purged_at', 'is', null)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

/**
 * Deletes an unsold quote's screening whole (nothing needs it; a later purchase screens again).
 * False when it changed since `updatedAt` (answered, completed or restarted) or is gone already.
 */
export async function deleteUnsold(db: Executor, id: string, updatedAt: string): Promise<boolean> {
  const done = await db
    .deleteFrom('screening')
    .where('id', '=', id)
    .where('updated_at', '=', updatedAt)
    .where('purged_at', 'is', null)
    .executeTakeFirst();
  return Number(done.numDeletedRows) === 1;
}
