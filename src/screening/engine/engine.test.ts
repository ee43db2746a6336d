import { beforeAll, describe, expect, it } from 'vitest';
import { validateCatalogue } from '../../catalogue/compile.js';
import type { CompiledCatalogue } from '../../catalogue/model.js';
import type { ScreeningAnswers, ScreeningEngine, ScreeningTrip } from '../model.js';
import { snapshotOf } from '../../catalogue/reader.js';
import { NO_BRAND_SCREENING, NO_SCREENING } from '../../catalogue/screening.js';
import { buildScreeningEngine, screeningEngineOf } from './engine.js';

let catalogue: CompiledCatalogue;
let engine: ScreeningEngine;
beforeAll(async () => {
  const { catalogue: compiled, problems } = await validateCatalogue('catalogue');
  expect(problems).toEqual([]);
  if (!compiled) throw new Error('catalogue invalid');
  catalogue = compiled;
  engine = buildScreeningEngine(catalogue, { testConditions: true });
});

const trip = (over: Partial<ScreeningTrip> = {}): ScreeningTrip => ({
  brandCode: 'brandau',
  planCode: 'COMP',
  destinationCodes: ['FJI'],
  durationDays: 14,
  currencyCode: 'AUD',
  language: 'en',
  ...over,
});
const NO_GATE = {
  'gate.hospital': ['NO'],
  'gate.medication': ['NO'],
  'gate.awaiting': ['NO'],
  'gate.terminal': ['NO'],
};
/** Gate answered (hospital YES), travel mode and the declared conditions, plus follow-up answers. */
const declare = (
  conditions: string[],
  followUps: Record<string, string> = {},
  travelMode = 'AIR',
): ScreeningAnswers => ({
  ...NO_GATE,
  'gate.hospital': ['YES'],
  travelMode: [travelMode],
  conditions,
  ...Object.fromEntries(Object.entries(followUps).map(([id, code]) => [id, [code]])),
});

describe('screening engine: outcomes (brandau COMP, AUD)', () => {
  it('needs no screening when every gate answer is NO', () => {
    expect(engine.nextQuestions(trip(), NO_GATE)).toEqual([]);
    expect(engine.assess(trip(), NO_GATE)).toEqual({
      outcome: 'NO_SCREENING_NEEDED',
      score: 1,
      conditions: [],
      medicalPremiumMinor: 0,
      excessMinor: 0,
      signposting: false,
    });
  });

  it('covers a condition automatically when its criteria hold (asthma, no admission, no steroids)', () => {
    const result = engine.assess(
      trip({ destinationCodes: ['USA'] }),
      declare(['ASTHMA'], { 'ASTHMA.admitted12m': 'NO', 'ASTHMA.oralSteroids': 'NO' }),
    );
    expect(result).toMatchObject({ outcome: 'COVERED', medicalPremiumMinor: 0, excessMinor: 0 });
    expect(result.conditions).toEqual([
      {
        conditionCode: 'ASTHMA',
        name: 'Asthma',
        score: 2.4,
        outcome: 'AUTO_COVERED',
        medicalPremiumMinor: 0,
        excessMinor: 0,
      },
    ]);
  });

  it('leaves a condition covered automatically out of the traveller score', () => {
    const asthma = { 'ASTHMA.admitted12m': 'NO', 'ASTHMA.oralSteroids': 'NO' };
    const both = engine.assess(
      trip(),
      declare(['ASTHMA', 'HYPERTENSION'], { ...asthma, 'HYPERTENSION.controlled': 'NO' }),
    );
    expect(both).toMatchObject({ outcome: 'COVERED', score: 1.65, medicalPremiumMinor: 4500 });
    const admitted = declare(['ASTHMA', 'HYPERTENSION'], {
      ...asthma,
      'ASTHMA.admitted12m': 'YES',
      'ASTHMA.admissions': 'ONCE',
      'HYPERTENSION.controlled': 'NO',
    });
    expect(engine.assess(trip(), admitted).score).toBe(Math.round(1.2 * 1.6 * 1.65 * 10_000) / 10_000);
  });

  it('covers with a loading: unstable hypertension to Fiji scores 1.65 → 45.00 AUD', () => {
    const result = engine.assess(trip(), declare(['HYPERTENSION'], { 'HYPERTENSION.controlled': 'NO' }));
    expect(result).toMatchObject({
      outcome: 'COVERED',
      score: 1.65,
      medicalPremiumMinor: 4500,
      excessMinor: 0,
      signposting: false,
    });
    expect(result.conditions[0]).toMatchObject({ outcome: 'COVERED', score: 1.65, medicalPremiumMinor: 4500 });
  });

  it('excludes a heart attack on a trip to the USA (region 2.0 × pair 1.5 → 9)', () => {
    const answers = declare(['HEART_ATTACK'], {
      'HEART_ATTACK.sinceAttack': 'OVER_2_YEARS',
      'HEART_ATTACK.chestPain': 'NO',
    });
    expect(engine.assess(trip(), answers).conditions[0]).toMatchObject({
      score: 3,
      outcome: 'COVERED',
      medicalPremiumMinor: 4500,
    });
    const usa = engine.assess(trip({ destinationCodes: ['FJI', 'USA'] }), answers);
    expect(usa).toMatchObject({ outcome: 'COVERED_WITH_EXCLUSIONS', score: 9, medicalPremiumMinor: 0, excessMinor: 0 });
    expect(usa.conditions[0]).toMatchObject({ score: 9, outcome: 'EXCLUDED' });
  });

  it('refers a recent heart attack to the USA (12.6) to an underwriter', () => {
    const answers = declare(['HEART_ATTACK'], {
      'HEART_ATTACK.sinceAttack': 'UNDER_2_YEARS',
      'HEART_ATTACK.chestPain': 'NO',
    });
    expect(engine.assess(trip({ destinationCodes: ['USA'] }), answers)).toMatchObject({
      outcome: 'REFERRED',
      score: 12.6,
    });
  });

  it('declines a condition above the last band and keeps the traveller covered below the traveller limit', () => {
    const answers = declare(['HEART_FAILURE'], { 'HEART_FAILURE.chestPain': 'YES', 'HEART_FAILURE.oxygen': 'YES' });
    const result = engine.assess(trip({ destinationCodes: ['USA'] }), answers);
    expect(result).toMatchObject({ outcome: 'COVERED_WITH_EXCLUSIONS', score: 37.8 });
    expect(result.conditions[0]).toMatchObject({ outcome: 'DECLINED' });
  });

  it('declines the whole traveller whose score exceeds the plan limit (40 on COMP, 25 on ESSE)', () => {
    const answers = declare(['HEART_FAILURE', 'COPD'], {
      'HEART_FAILURE.chestPain': 'YES',
      'HEART_FAILURE.oxygen': 'NO',
      'COPD.oxygen': 'NO',
      'COPD.admitted12m': 'NO',
    });
    const comp = engine.assess(trip({ destinationCodes: ['USA'] }), answers);
    expect(comp.score).toBeCloseTo(2 * 3.5 * 1.8 * 1.5 * 2.2, 4);
    expect(comp.outcome).toBe('DECLINED');
    const pacific = engine.assess(
      trip(),
      declare(['HEART_FAILURE'], { 'HEART_FAILURE.chestPain': 'NO', 'HEART_FAILURE.oxygen': 'NO' }),
    );
    expect(pacific.outcome).toBe('COVERED');
    // ESSE: 3.5 × 2 × 1.5 = 10.5 is REFERRED (up to 12); with chest pain 18.9 falls in the band that declines the
    // traveller, below the traveller limit of 25.
    const esse = (chestPain: string) =>
      engine.assess(
        trip({ planCode: 'ESSE', destinationCodes: ['USA'] }),
        declare(['HEART_FAILURE'], { 'HEART_FAILURE.chestPain': chestPain, 'HEART_FAILURE.oxygen': 'NO' }),
      );
    expect(esse('NO')).toMatchObject({ outcome: 'REFERRED', score: 10.5 });
    expect(esse('YES')).toMatchObject({ outcome: 'DECLINED', score: 18.9, conditions: [{ outcome: 'DECLINED' }] });
  });

  it('offers no screening on any BASIC plan, and says so before asking', () => {
    for (const brand of catalogue.brands) {
      expect(engine.isOffered(brand.brandCode, 'BASIC'), brand.brandCode).toBe(false);
      expect(engine.isOffered(brand.brandCode, 'COMP'), brand.brandCode).toBe(true);
    }
    expect(engine.isOffered('brandau', 'NOSUCH')).toBe(false);
    expect(() => engine.nextQuestions(trip({ planCode: 'BASIC' }), {})).toThrow(/offers no screening/);
    expect(() => engine.assess(trip({ planCode: 'BASIC' }), NO_GATE)).toThrow(/offers no screening/);
  });
});

describe('screening engine: region, pair and travel mode', () => {
  const atrial = declare(['ATRIAL_FIBRILLATION'], {
    'ATRIAL_FIBRILLATION.controlled': 'YES',
    'ATRIAL_FIBRILLATION.anticoagulants': 'NO',
  });
  const scoreTo = (destinationCodes: string[], answers = atrial) =>
    engine.assess(trip({ destinationCodes }), answers).conditions[0]?.score;

  it('takes the highest rating region of the destinations', () => {
    expect(scoreTo(['FJI'])).toBe(2);
    expect(scoreTo(['JPN'])).toBe(2.3);
    expect(scoreTo(['FRA'])).toBe(2.5);
    expect(scoreTo(['FJI', 'FRA', 'JPN'])).toBe(2.5);
    expect(scoreTo(['XWW'])).toBe(2 * 2 * 1.3); // region code and the pair of the USA's region
  });

  it('applies a pair weight only with its region', () => {
    expect(scoreTo(['USA'])).toBe(5.2);
    expect(scoreTo(['CAN'])).toBe(5.2); // same rating region
    expect(scoreTo(['ZAF'])).toBe(2.8); // WORLDWIDE_EXCL_AMERICAS: no pair
  });

  it('multiplies by the travel mode factor', () => {
    const modes = ['AIR', 'CRUISE', 'BOTH', 'NONE'].map((mode) =>
      scoreTo(
        ['FJI'],
        declare(
          ['ATRIAL_FIBRILLATION'],
          { 'ATRIAL_FIBRILLATION.controlled': 'YES', 'ATRIAL_FIBRILLATION.anticoagulants': 'NO' },
          mode,
        ),
      ),
    );
    expect(modes).toEqual([2, 2.6, 2.7, 1.8]);
  });
});

describe('screening engine: fixed test conditions', () => {
  const everyTrip = [
    trip(),
    trip({ destinationCodes: ['USA'], planCode: 'AMT' }),
    trip({ brandCode: 'nomad', currencyCode: 'USD', language: 'es' }),
  ];

  it('gives each TEST_ condition its outcome whatever the trip', () => {
    for (const t of everyTrip) {
      const one = (code: string) => engine.assess(t, declare([code]));
      expect(one('TEST_AUTO_COVERED')).toMatchObject({
        outcome: 'COVERED',
        medicalPremiumMinor: 0,
        conditions: [{ outcome: 'AUTO_COVERED' }],
      });
      expect(one('TEST_COVERED')).toMatchObject({
        outcome: 'COVERED',
        medicalPremiumMinor: 6000,
        excessMinor: 10000,
        conditions: [{ outcome: 'COVERED' }],
      });
      expect(one('TEST_EXCLUDED')).toMatchObject({
        outcome: 'COVERED_WITH_EXCLUSIONS',
        conditions: [{ outcome: 'EXCLUDED' }],
      });
      expect(one('TEST_DECLINED')).toMatchObject({
        outcome: 'COVERED_WITH_EXCLUSIONS',
        conditions: [{ outcome: 'DECLINED' }],
      });
      expect(one('TEST_DECLINE_TRAVELLER')).toMatchObject({ outcome: 'DECLINED' });
      expect(one('TEST_REFERRED')).toMatchObject({ outcome: 'REFERRED', conditions: [{ outcome: 'REFERRED' }] });
    }
  });

  it('are unknown choices when the engine is built without them (production)', () => {
    const production = buildScreeningEngine(catalogue, { testConditions: false });
    expect(production.checkAnswers(trip(), declare(['TEST_COVERED']))).toEqual([
      { questionId: 'conditions', code: 'UNKNOWN_CHOICE', message: expect.any(String) },
    ]);
    expect(production.findConditions(trip(), 'test')).toEqual([]);
    expect(engine.findConditions(trip(), 'test').map((c) => c.code)).toContain('TEST_COVERED');
  });
});

describe('screening engine: signposting (FCA PS20/3, GBP only)', () => {
  const gbp = trip({ currencyCode: 'GBP' });
  it('signposts a decline, an exclusion, or a medical premium of £100 or more', () => {
    expect(engine.assess(gbp, declare(['TEST_DECLINED'])).signposting).toBe(true);
    expect(engine.assess(gbp, declare(['TEST_EXCLUDED'])).signposting).toBe(true);
    expect(engine.assess(gbp, declare(['TEST_DECLINE_TRAVELLER'])).signposting).toBe(true);
    expect(engine.assess(gbp, declare(['TEST_COVERED'])).signposting).toBe(false); // £60
    expect(
      engine.assess(gbp, declare(['TEST_COVERED', 'HYPERTENSION'], { 'HYPERTENSION.controlled': 'NO' }))
        .medicalPremiumMinor,
    ).toBe(10500);
    expect(
      engine.assess(gbp, declare(['TEST_COVERED', 'HYPERTENSION'], { 'HYPERTENSION.controlled': 'NO' })).signposting,
    ).toBe(true);
    expect(engine.assess(trip(), declare(['TEST_DECLINED'])).signposting).toBe(false); // AUD
  });
});

describe('screening engine of a catalogue snapshot', () => {
  it('is built once per snapshot and option, and answers like one built from the compiled catalogue', () => {
    const snapshot = snapshotOf(catalogue, 1, '2026-01-01T00:00:00.000Z');
    const a = screeningEngineOf(snapshot, { testConditions: true });
    expect(screeningEngineOf(snapshot, { testConditions: true })).toBe(a);
    expect(screeningEngineOf(snapshot, { testConditions: false })).not.toBe(a);
    const answers = declare(['HEART_ATTACK'], {
      'HEART_ATTACK.sinceAttack': 'UNDER_2_YEARS',
      'HEART_ATTACK.chestPain': 'NO',
    });
    const usa = trip({ destinationCodes: ['USA'] });
    expect(a.assess(usa, answers)).toEqual(engine.assess(usa, answers));
  });
});

describe('screening engine of a version imported before screening existed', () => {
  it('offers screening on no plan', () => {
    const old = buildScreeningEngine(
      { screening: NO_SCREENING, brands: [{ brandCode: 'brandau', screening: NO_BRAND_SCREENING }], destinations: [] },
      { testConditions: true },
    );
    expect(old.isOffered('brandau', 'COMP')).toBe(false);
    expect(() => old.nextQuestions(trip(), {})).toThrow(/offers no screening/);
  });
});
