import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { POLICY_STATUS } from './model.js';

/** A traveller looked for among the brand's issued policies (names compared without case). */
export interface TravellerKey {
  readonly firstName: string;
  readonly lastName: string;
  readonly dateOfBirth: string;
}

/**
 * Whether one of `travellers` is on an active (issued, not cancelled) policy of the brand whose
 * current transaction covers a day of `from`..`to` (YYYY-MM-DD, both inclusive): the referral
 * rule DUPLICATE_POLICY (referrals/rules.ts). Found by date of birth (indexed), then names.
 */
export async function hasOverlappingPolicy(
  db: Executor,
  brandCode: string,
  travellers: readonly TravellerKey[],
  from: string,
  to: string,
  /** An amended policy is not a duplicate of itself. */
  excludePolicyNumber?: string,
): Promise<boolean> {
  if (travellers.length === 0) return false;
  let query = db
    .selectFrom('policy_traveller as t')
    .innerJoin('policy_detail as d', 'd.id', 't.policy_detail_id')
    .innerJoin('policy_header as h', 'h.id', 't.policy_header_id')
    .select('h.id')
    .where('t.date_of_birth', 'in', [...new Set(travellers.map((t) => t.dateOfBirth))])
    .where('h.brand_code', '=', brandCode)
    .where('h.status_id', '=', POLICY_STATUS.Active)
    .whereRef('d.sequence_number', '=', 'h.sequence_number')
    .where('d.departure_date', '<=', to)
    .where('d.cover_end_date', '>=', from)
    .where((eb) =>
      eb.or(
        travellers.map((t) =>
          eb.and([
            eb('t.date_of_birth', '=', t.dateOfBirth),
            eb(sql<string>`lower(t.first_name)`, '=', t.firstName.toLowerCase()),
            eb(sql<string>`lower(t.surname)`, '=', t.lastName.toLowerCase()),
          ]),
        ),
      ),
    )
    .limit(1);
  if (excludePolicyNumber !== undefined) query = query.where('h.policy_number', '<>', excludePolicyNumber);
  const row = await query.executeTakeFirst();
  return row !== undefined;
}
