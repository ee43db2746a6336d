import { describe, expect, it } from 'vitest';
import { issueRequest } from '../../test/policies/fixtures.js';
import { InvalidPolicyIssue } from './errors.js';
import type { PolicyIssueRequest } from './issue-request.js';
import { validateIssueRequest } from './service.js';

function problemOf(request: PolicyIssueRequest): string | undefined {
  try {
    validateIssueRequest(request);
    return undefined;
  } catch (error) {
    if (error instanceof InvalidPolicyIssue) return error.property;
    throw error;
  }
}

describe('validateIssueRequest', () => {
  const valid = issueRequest();
  const [primary, second] = valid.travellers;

  it('accepts a complete purchase and returns its number format', () => {
    expect(validateIssueRequest(valid).source).toBe('{prefix}{country}{yy}{seq:7}');
  });

  it.each<[string, Partial<PolicyIssueRequest>, string]>([
    [
      'a shape error, by its path',
      { plan: { ...valid.plan, currency: { ...valid.plan.currency, code: 'aud' } } },
      'plan.currency.code',
    ],
    ['no traveller', { travellers: [] }, 'travellers'],
    ['no primary traveller', { travellers: [{ ...primary!, isPrimary: false }, second!] }, 'travellers'],
    ['two primary travellers', { travellers: [primary!, { ...second!, isPrimary: true }] }, 'travellers'],
    ['a primary dependent', { dependents: [{ ...valid.dependents[0]!, isPrimary: true }] }, 'dependents'],
    ['a repeated guid', { dependents: [{ ...valid.dependents[0]!, guid: 'trav-1' }] }, 'travellers'],
    [
      'an impossible birth date',
      { travellers: [{ ...primary!, dateOfBirth: '1990-02-30' }, second!] },
      'people[0].dateOfBirth',
    ],
    ['an impossible departure', { departureDate: '2026-02-29' }, 'departureDate'],
    ['cover ending before departure', { coverEndDate: '2026-11-30' }, 'coverEndDate'],
    ['an unknown zone', { presentationTimeZoneCode: 'Australia/Atlantis' }, 'presentationTimeZoneCode'],
    ['names and codes that differ in number', { destinations: { codes: ['NZL'], names: [] } }, 'destinations'],
    [
      'a discount above the premium',
      { amounts: { premium: 100, discount: 200, taxes: [], donation: 0, total: 0 } },
      'amounts.discount',
    ],
    [
      'a total that does not add up',
      { amounts: { ...valid.amounts, total: valid.amounts.total + 1 } },
      'amounts.total',
    ],
    [
      'a format without a counter',
      { plan: { ...valid.plan, policyNumberFormat: '{prefix}{yy}' } },
      'plan.policyNumberFormat',
    ],
  ])('refuses %s', (_what, change, property) => {
    expect(problemOf({ ...valid, ...change })).toBe(property);
  });
});
