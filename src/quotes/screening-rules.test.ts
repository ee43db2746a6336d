import { describe, expect, it } from 'vitest';
import { BALI_SCREENING_TRIP, screened } from '../../test/screening/screened.js';
import type { QuoteInput } from './schemas.js';
import { medicalPremiums, screeningGaps, screeningNotices, screeningPurchaseProblems } from './screening-rules.js';

const optedIn = { optionType: 'TRAVELCLEAR', isOptedInForScreening: true, isOptedInForCover: true };
const input = (options: (typeof optedIn | undefined)[]): QuoteInput => ({
  planId: 101,
  policyHolders: options.map((travelClearOption, i) => ({
    guid: `g${i}`,
    ...(travelClearOption ? { travelClearOption } : {}),
  })),
});
const codes = (ns: { code?: string; property?: string }[]) => ns.map((n) => `${n.code} ${n.property}`);

describe('screening rules of a quote (screenings assessed by the real engine)', () => {
  it('asks a screening of each opted-in traveller, names a STALE one, and is content with COMPLETED ones', async () => {
    const quote = input([optedIn, optedIn, undefined, optedIn]);
    const screenings = [await screened('g0', ['TEST_COVERED']), await screened('g1', [], { status: 'STALE' })];
    expect(codes(screeningGaps(quote, screenings))).toEqual([
      'SCREENING_STALE input.policyHolders[1].travelClearOption',
      'SCREENING_REQUIRED input.policyHolders[3].travelClearOption',
    ]);
    const inProgress = { travellerGuid: 'g3', status: 'IN_PROGRESS' as const };
    expect(screeningGaps(quote, [...screenings, inProgress]).map((g) => g.code)).toEqual([
      'SCREENING_STALE',
      'SCREENING_REQUIRED',
    ]);
    expect(screeningGaps(input([undefined]), [])).toEqual([]);
  });

  it('prices the engine’s premium only for travellers opted in for cover with a COMPLETED screening', async () => {
    const screeningOnly = { ...optedIn, isOptedInForCover: false };
    const quote = input([optedIn, screeningOnly, optedIn]);
    const screenings = [
      await screened('g0', ['TEST_COVERED']),
      await screened('g1', ['TEST_COVERED']),
      await screened('g2', ['TEST_COVERED'], { status: 'STALE' }),
    ];
    // TEST_COVERED: a premium of 60.00 in the trip currency.
    expect(medicalPremiums(quote, screenings)).toEqual([{ planId: 101, travellerGuid: 'g0', premium: 6000 }]);
    expect(medicalPremiums({ ...quote, planId: 0 }, screenings)).toEqual([]);
  });

  it('refuses a purchase with a declined traveller, a referral, a stale or a missing screening', async () => {
    const quote = input([optedIn, optedIn, optedIn, optedIn, optedIn]);
    const screenings = [
      await screened('g0', ['TEST_DECLINE_TRAVELLER']),
      await screened('g1', ['TEST_REFERRED']),
      await screened('g2', ['TEST_COVERED'], { status: 'STALE' }),
      await screened('g4', ['TEST_EXCLUDED', 'TEST_DECLINED']),
    ];
    expect(codes(screeningPurchaseProblems(quote, screenings))).toEqual([
      'SCREENING_STALE quote.input.policyHolders[2].travelClearOption',
      'SCREENING_REQUIRED quote.input.policyHolders[3].travelClearOption',
      'SCREENING_DECLINED quote.input.policyHolders[0].travelClearOption',
      'SCREENING_REFERRED quote.input.policyHolders[1].travelClearOption',
    ]);
    const messages = screeningPurchaseProblems(quote, screenings).map((n) => n.message ?? '');
    expect(messages.join(' ')).toContain('awaits an underwriter');
    // Health data stays out of notices: no condition code or name.
    expect(JSON.stringify(screeningPurchaseProblems(quote, screenings))).not.toMatch(/TEST_|Test /);
  });

  it('points to the medical cover directory when a UK assessment says so (GBP trips only)', async () => {
    const uk = { ...BALI_SCREENING_TRIP, currencyCode: 'GBP' };
    const quote = input([optedIn, optedIn]);
    const declinedUk = await screened('g0', ['TEST_DECLINED'], { trip: uk });
    expect(declinedUk.assessment?.signposting).toBe(true);
    const notices = screeningNotices(quote, [declinedUk, await screened('g1', ['TEST_DECLINED'])]);
    expect(notices.map((n) => [n.code, n.title, n.property])).toEqual([
      ['MEDICAL_COVER_DIRECTORY', 'warning', 'input.policyHolders[0].travelClearOption'],
    ]);
    expect(notices[0]?.message).toContain('moneyhelper.org.uk/travel-insurance-directory');
  });
});
