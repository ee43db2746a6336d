import { randomToken } from '../kernel/crypto/random-token.js';
import { Compile } from 'typebox/compile';
import Value from 'typebox/value';
import type { Executor } from '../db/database.js';
import { jsonPointerToPath } from '../http/notifications.js';
import { InvalidPolicyIssue, PolicyNotFound } from './errors.js';
import { PolicyIssueRequest } from './issue-request.js';
import { isIsoDate } from '../kernel/calendar/dates.js';
import { isTimeZone, yearIn } from '../kernel/calendar/zones.js';
import type { NumberedIssue } from './model.js';
import {
  counterKeyOf,
  InvalidPolicyNumberFormat,
  numberTemplateOf,
  policyNumberFormatOf,
  policyDetailNumber,
  type PolicyNumberFormat,
} from './policy-number.js';
import { presentDetail, presentSummary } from './present.js';
import { findPolicy } from './repository.js';
import { notesOfPolicy } from '../policy-notes/repository.js';
import type { PolicyLookup } from './repository-read.js';
import type { PolicyDetailLongSummary, PolicySummary } from './schemas.js';

export type { PolicyIssueRequest } from './issue-request.js';
export type { PolicyLookup } from './repository-read.js';

// Compiled once: interpreting the schema on every issue cost 0.2 ms of a purchase's CPU (8 µs
// compiled); the errors of a refused request are still worded by Value.Errors.
const issueRequestShape = Compile(PolicyIssueRequest);

/**
 * Checks what the purchase hands over, beyond its shape: the zone, the dates, one primary
 * traveller, unique guids, amounts that add up, and a usable number format.
 * Returns the parsed number format; throws InvalidPolicyIssue naming the first problem.
 */
export function validateIssueRequest(request: PolicyIssueRequest): PolicyNumberFormat {
  if (!issueRequestShape.Check(request)) {
    const shapeError = Value.Errors(PolicyIssueRequest, request)[0];
    throw new InvalidPolicyIssue(
      shapeError ? jsonPointerToPath(shapeError.instancePath) : '',
      shapeError?.message ?? 'does not have the PolicyIssueRequest shape',
    );
  }
  const fail = (property: string, message: string): never => {
    throw new InvalidPolicyIssue(property, message);
  };
  if (!isTimeZone(request.presentationTimeZoneCode)) fail('presentationTimeZoneCode', 'not an IANA time zone');
  if (!isIsoDate(request.departureDate)) fail('departureDate', 'not a calendar date');
  if (!isIsoDate(request.coverEndDate)) fail('coverEndDate', 'not a calendar date');
  if (request.coverEndDate < request.departureDate) fail('coverEndDate', 'cover ends before departure');
  const people = [...request.travellers, ...request.dependents];
  people.forEach((person, i) => {
    if (person.dateOfBirth !== undefined && !isIsoDate(person.dateOfBirth))
      fail(`people[${i}].dateOfBirth`, 'not a calendar date');
  });
  if (request.travellers.filter((t) => t.isPrimary).length !== 1)
    fail('travellers', 'exactly one traveller must be primary');
  if (request.dependents.some((d) => d.isPrimary)) fail('dependents', 'a dependent cannot be the primary traveller');
  if (new Set(people.map((p) => p.guid)).size !== people.length)
    fail('travellers', 'traveller and dependent guids must be unique');
  const { codes, names } = request.destinations;
  if (codes.length !== names.length) fail('destinations', 'one name per destination code');
  const { premium, discount, taxes, donation, total } = request.amounts;
  if (discount > premium) fail('amounts.discount', 'discount exceeds the premium');
  const expected = premium - discount + taxes.reduce((sum, tax) => sum + tax.amount, 0) + donation;
  if (total !== expected)
    fail('amounts.total', `total ${total} is not premium − discount + taxes + donation (${expected})`);
  try {
    return policyNumberFormatOf(request.plan.policyNumberFormat);
  } catch (error) {
    if (error instanceof InvalidPolicyNumberFormat) fail('plan.policyNumberFormat', error.message);
    throw error;
  }
}

/**
 * Everything about issuing `request` at `now` but the number's counter value: checks the request
 * (throws InvalidPolicyIssue), the counter and the number's text around it, the document guid.
 */
export function prepareIssue(request: PolicyIssueRequest, now: Date): NumberedIssue {
  const format = validateIssueRequest(request);
  const parts = {
    prefix: request.plan.policyNumberPrefix,
    country: request.plan.jurisdictionCountryCode,
    year: yearIn(now, request.presentationTimeZoneCode),
  };
  return {
    counter: counterKeyOf(format, parts),
    number: numberTemplateOf(format, parts),
    detailSuffix: policyDetailNumber('', 1),
    // The customer's document link key (documents/link-service.ts): 256 random bits, base64url.
    // The column keeps its name; UUIDs of policies issued before keep working.
    policyDocumentAccessGuid: randomToken(32),
    issuedAt: now.toISOString(),
  };
}

/** The policy as it stands (spec §4.10); 404 unless `lookup.partnerId` sold it under `lookup.brandCode`. */
export async function getPolicySummary(db: Executor, lookup: PolicyLookup): Promise<PolicySummary> {
  const policy = await findPolicy(db, lookup);
  if (!policy) throw new PolicyNotFound(lookup.policyNumber);
  return presentSummary(policy);
}

/** Every transaction of the policy, oldest first (spec §4.11); same visibility as the summary. */
export async function getPolicyDetails(db: Executor, lookup: PolicyLookup): Promise<PolicyDetailLongSummary[]> {
  const policy = await findPolicy(db, lookup);
  if (!policy) throw new PolicyNotFound(lookup.policyNumber);
  const notes = await notesOfPolicy(db, policy.id);
  return policy.details.map((detail) => presentDetail(policy, detail, notes));
}
