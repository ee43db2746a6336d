import type { PaymentMethod } from '../kernel/money/payment-methods.js';
import type { Executor } from '../db/database.js';
import { dateIn } from '../kernel/calendar/zones.js';
import {
  POLICY_STATUS,
  TRANSACTION_TYPE,
  type DetailRecord,
  type PersonRecord,
  type PolicyRecord,
} from '../policies/model.js';
import { PolicyNotFound } from '../policies/errors.js';
import { findPolicy } from '../policies/repository.js';
import type { PolicyLookup } from '../policies/repository-read.js';
import type { InsuredPerson } from '../policies/issue-request.js';
import type { PolicyVersion } from '../policies/transaction-request.js';
import { PolicyCancelled } from './errors.js';
import { partsOf, sumParts, type Parts } from './parts.js';

/** What a change needs to know of the policy it changes: read from the policies area, pure after that. */

/** The policy as it stands, if the partner sold it under the brand and it is still active. */
export async function activePolicy(db: Executor, lookup: PolicyLookup): Promise<PolicyRecord> {
  const policy = await findPolicy(db, lookup);
  if (!policy) throw new PolicyNotFound(lookup.policyNumber);
  if (policy.statusId !== POLICY_STATUS.Active) throw new PolicyCancelled(policy.policyNumber);
  return policy;
}

export function latestDetail(policy: PolicyRecord): DetailRecord {
  const latest = policy.details.at(-1);
  if (!latest) throw new Error(`policy ${policy.policyNumber} has no transaction`);
  return latest;
}

/**
 * How the policy's changes move money: the way it was bought (its first transaction). An
 * on-account policy stays on account even if the partner's on-account purchases were stopped
 * since: money already owed there keeps flowing there (docs/decisions.md).
 */
export function paymentMethodOf(policy: PolicyRecord): PaymentMethod {
  return policy.details[0]?.paymentMethod ?? 'CARD';
}

/** One transaction's money as parts (financial rows by kind). */
export function partsOfDetail(detail: DetailRecord): Parts {
  const of = (type: number) => detail.financials.filter((f) => f.transactionTypeId === type);
  const total = (type: number) => of(type).reduce((sum, f) => sum + f.amountMinor, 0);
  const named = (type: number) => of(type).map((f) => ({ name: f.name ?? '', amount: f.amountMinor }));
  return partsOf({
    premium: total(TRANSACTION_TYPE.Premium),
    discount: total(TRANSACTION_TYPE.Discount),
    taxes: named(TRANSACTION_TYPE.Tax),
    donation: total(TRANSACTION_TYPE.Donation),
    fees: named(TRANSACTION_TYPE.Fee),
  });
}

/** What the policy has paid so far: the sum of all its transactions, part by part. */
export function paidSoFar(policy: PolicyRecord): Parts {
  return sumParts(policy.details.map(partsOfDetail));
}

function personOf({ id: _id, displayOrder: _order, ...person }: PersonRecord): InsuredPerson {
  return person;
}

/** The policy as its latest transaction left it, in the shape a new transaction records. */
export function versionOf(policy: PolicyRecord, detail: DetailRecord): PolicyVersion {
  return {
    homeAddress: detail.address,
    travellers: detail.travellers.map(personOf),
    dependents: detail.dependents.map(personOf),
    destinations: policy.destinations,
    departureDate: detail.departureDate,
    coverEndDate: detail.coverEndDate,
    options: detail.options.map((o) => ({
      optionTypeId: o.optionTypeId,
      name: o.name,
      ...(o.description !== undefined ? { description: o.description } : {}),
      displayOrder: o.displayOrder,
    })),
    specifiedItems: detail.specifiedItems,
    ...(detail.adventure
      ? { adventure: { level: detail.adventure.level ?? '', activities: detail.adventure.activities } }
      : {}),
    excessMinor: policy.excessMinor,
    client: detail.client,
  };
}

/** Where a change starts: the active policy, its latest transaction, the one a change would write, today in its zone. */
export interface ChangeStart {
  readonly policy: PolicyRecord;
  readonly latest: DetailRecord;
  readonly sequenceNumber: number;
  readonly now: Date;
  readonly zone: string;
  readonly today: string;
}

export async function changeStart(db: Executor, lookup: PolicyLookup, now: Date): Promise<ChangeStart> {
  const policy = await activePolicy(db, lookup);
  const zone = policy.presentationTimeZoneCode;
  return {
    policy,
    latest: latestDetail(policy),
    sequenceNumber: policy.sequenceNumber + 1,
    now,
    zone,
    today: dateIn(now, zone),
  };
}
