import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReferralRule } from '../catalogue/referrals.js';
import type { QuoteInput } from '../quotes/schemas.js';
import { REFERRAL_STATUSES } from './model.js';
import { firedReasons, referralChange, referralFingerprint, type ReferralFacts } from './rules.js';

const RULES: ReferralRule[] = [
  { kind: 'TRIP_VALUE_PER_TRAVELLER', reasonCode: 'TRIP_VALUE_HIGH', aboveMinor: 1_500_000 },
  { kind: 'TRAVELLER_AGE', reasonCode: 'TRAVELLER_AGE_HIGH', aboveYears: 80 },
  { kind: 'SCREENING_REFERRED', reasonCode: 'MEDICAL_REFERRED' },
  { kind: 'DUPLICATE_POLICY', reasonCode: 'DUPLICATE_POLICY' },
  { kind: 'DESTINATION_WATCH_LIST', reasonCode: 'DESTINATION_WATCHED', destinations: ['VEN', 'NGA'] },
];

const trip = (input: Partial<QuoteInput> = {}): QuoteInput => ({
  quoteType: 'SINGLETRIP',
  planId: 7,
  destinationCountryCodes: ['JPN'],
  departureDate: '2026-12-10',
  returnDate: '2026-12-23',
  policyHolders: [
    { guid: 'a', dateOfBirth: '1984-05-02', firstName: 'Ada', lastName: 'Lovelace' },
    { guid: 'b', age: 40 },
  ],
  ...input,
});

const facts = (input: QuoteInput, more: Partial<ReferralFacts> = {}): ReferralFacts => ({
  input,
  quoteDate: '2026-11-22',
  minorPerMajor: 100,
  screeningOutcomes: [],
  hasDuplicatePolicy: false,
  ...more,
});

describe('referral rules', () => {
  it('fire nothing on an ordinary trip', () => {
    expect(firedReasons(RULES, facts(trip()))).toEqual([]);
  });

  it('fire each rule on its own fact, with its reason code', () => {
    expect(firedReasons(RULES, facts(trip({ tripValue: 30_001 })))).toEqual(['TRIP_VALUE_HIGH']);
    expect(firedReasons(RULES, facts(trip({ tripValue: 30_000 })))).toEqual([]);
    const old = trip({ policyHolders: [{ guid: 'a', dateOfBirth: '1945-11-21' }] });
    expect(firedReasons(RULES, facts(old))).toEqual(['TRAVELLER_AGE_HIGH']);
    const eighty = trip({ policyHolders: [{ guid: 'a', dateOfBirth: '1945-11-23' }] });
    expect(firedReasons(RULES, facts(eighty))).toEqual([]);
    expect(firedReasons(RULES, facts(trip(), { screeningOutcomes: ['COVERED', 'REFERRED'] }))).toEqual([
      'MEDICAL_REFERRED',
    ]);
    expect(firedReasons(RULES, facts(trip(), { hasDuplicatePolicy: true }))).toEqual(['DUPLICATE_POLICY']);
    expect(firedReasons(RULES, facts(trip({ destinationCountryCodes: ['jpn', 'ven'] })))).toEqual([
      'DESTINATION_WATCHED',
    ]);
  });

  it('fingerprint the judged trip, not names or contact details', () => {
    const base = referralFingerprint(trip());
    const renamed = trip();
    renamed.policyHolders = renamed.policyHolders?.map((h) => ({ ...h, firstName: 'Other', emailAddress: 'x@y.z' }));
    expect(referralFingerprint(renamed)).toBe(base);
    expect(referralFingerprint(trip({ destinationCountryCodes: ['JPN', 'JPN'] }))).toBe(base);
    expect(referralFingerprint(trip({ planId: 8 }))).not.toBe(base);
    expect(referralFingerprint(trip({ returnDate: '2026-12-24' }))).not.toBe(base);
    expect(referralFingerprint(trip({ tripValue: 10 }))).not.toBe(base);
  });

  it('open, keep, drop and re-refer by the stored referral and the fingerprint', () => {
    const approved = { status: 'APPROVED' as const, reasonCodes: ['A'], fingerprint: 'f1' };
    expect(referralChange(undefined, [], 'f1')).toEqual({ kind: 'keep' });
    expect(referralChange(undefined, ['A'], 'f1')).toEqual({ kind: 'open', reasonCodes: ['A'] });
    expect(referralChange(approved, ['A'], 'f1')).toEqual({ kind: 'keep' });
    // A new reason the approval did not see, or a changed quote that still fires: referred again.
    expect(referralChange(approved, ['A', 'B'], 'f1')).toEqual({ kind: 'open', reasonCodes: ['A', 'B'] });
    expect(referralChange(approved, ['A'], 'f2')).toEqual({ kind: 'open', reasonCodes: ['A'] });
    // Changed so that nothing fires: the approval stays, it just no longer applies.
    expect(referralChange(approved, [], 'f2')).toEqual({ kind: 'keep' });
    const waiting = { status: 'REFERRED' as const, reasonCodes: ['A'], fingerprint: 'f1' };
    expect(referralChange(waiting, ['A'], 'f1')).toEqual({ kind: 'keep' });
    expect(referralChange(waiting, [], 'f2')).toEqual({ kind: 'drop' });
    const declined = { status: 'DECLINED' as const, reasonCodes: ['A'], fingerprint: 'f1' };
    expect(referralChange(declined, ['A', 'B'], 'f1')).toEqual({ kind: 'keep' });
    expect(referralChange(declined, ['A'], 'f2')).toEqual({ kind: 'open', reasonCodes: ['A'] });
  });

  it('never leave a quote a rule fires on without a referral that applies (property)', () => {
    const codes = fc.uniqueArray(fc.constantFrom('A', 'B', 'C'), { maxLength: 3 });
    fc.assert(
      fc.property(
        fc.option(
          fc.record({
            status: fc.constantFrom(...REFERRAL_STATUSES),
            reasonCodes: codes,
            fingerprint: fc.constantFrom('f1', 'f2'),
          }),
          { nil: undefined },
        ),
        codes,
        fc.constantFrom('f1', 'f2'),
        (existing, fired, fingerprint) => {
          const change = referralChange(existing, fired, fingerprint);
          if (fired.length === 0) return change.kind !== 'open';
          // A rule fires: either a referral is (re)opened, or one stands for this very fingerprint.
          if (change.kind === 'open') return change.reasonCodes.length > 0;
          return change.kind === 'keep' && existing?.fingerprint === fingerprint;
        },
      ),
    );
  });
});
