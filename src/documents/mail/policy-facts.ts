import { transactionMinor } from '../../policies/transaction-amounts.js';
import type { DetailRecord, PersonRecord, PolicyRecord } from '../../policies/model.js';
import type { PolicyEmailInput } from './compose.js';

/** What the e-mail tells of one transaction of a policy, read from the policy as stored. */
export type PolicyEmailFacts = Pick<PolicyEmailInput, 'kind' | 'trip' | 'transactionAt' | 'travellers' | 'money'>;

const byPlace = (a: PersonRecord, b: PersonRecord) =>
  Number(Boolean(b.isPrimary)) - Number(Boolean(a.isPrimary)) || a.displayOrder - b.displayOrder;

/**
 * The transaction's cover period (in the policy's zone), everyone it covers (the primary traveller
 * first, then dependents) and its money, counted as the certificate counts it: the transaction's
 * total (negative for a refund) and the policy's net total up to and including it.
 */
export function policyEmailFacts(policy: PolicyRecord, detail: DetailRecord): PolicyEmailFacts {
  const paidToDateMinor = policy.details
    .filter((d) => d.sequenceNumber <= detail.sequenceNumber)
    .reduce((sum, d) => sum + transactionMinor(d), 0);
  return {
    kind: detail.actionType,
    trip: {
      departureDate: detail.departureDate,
      coverEndDate: detail.coverEndDate,
      timeZone: policy.presentationTimeZoneCode,
    },
    transactionAt: detail.audit.createdAt,
    travellers: [...[...detail.travellers].sort(byPlace), ...[...detail.dependents].sort(byPlace)].map((p) => ({
      firstName: p.firstName,
      lastName: p.surname,
    })),
    money: {
      currencyCode: policy.currency.code,
      minorDigits: policy.currency.minorUnits,
      transactionMinor: transactionMinor(detail),
      paidToDateMinor,
    },
  };
}
