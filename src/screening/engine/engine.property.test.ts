import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateCatalogue } from '../../catalogue/compile.js';
import type { CompiledCatalogue } from '../../catalogue/model.js';
import type { ScreeningAnswers, ScreeningEngine, ScreeningTrip } from '../model.js';
import { buildScreeningEngine } from './engine.js';

let catalogue: CompiledCatalogue;
let engine: ScreeningEngine;
beforeAll(async () => {
  const { catalogue: compiled } = await validateCatalogue('catalogue');
  if (!compiled) throw new Error('catalogue invalid');
  catalogue = compiled;
  engine = buildScreeningEngine(catalogue, { testConditions: true });
});

const DESTINATIONS = ['FJI', 'IDN', 'JPN', 'THA', 'FRA', 'GBR', 'ZAF', 'USA', 'MEX', 'XWW', 'XWA', 'XSC'];
const BRANDS = [
  ['brandau', 'AUD'],
  ['brandnz', 'NZD'],
  ['directau', 'AUD'],
  ['nomad', 'USD'],
] as const;

const tripArb = fc.record({
  brand: fc.constantFrom(...BRANDS),
  planCode: fc.constantFrom('COMP', 'ESSE', 'AMT'),
  destinationCodes: fc.subarray(DESTINATIONS, { minLength: 1 }),
  language: fc.constantFrom('en', 'es'),
});
const toTrip = (t: {
  brand: readonly [string, string];
  planCode: string;
  destinationCodes: string[];
  language: string;
}): ScreeningTrip => ({
  brandCode: t.brand[0] as ScreeningTrip['brandCode'],
  planCode: t.planCode,
  destinationCodes: t.destinationCodes,
  durationDays: 10,
  currencyCode: t.brand[1],
  language: t.language,
});

/** Complete answers chosen by `picks`: the engine's own questions, answered until none is left. */
function walk(e: ScreeningEngine, trip: ScreeningTrip, picks: readonly number[]): ScreeningAnswers {
  const answers: Record<string, string[]> = {};
  let i = 0;
  const pick = () => picks[i++ % picks.length] ?? 0;
  for (let round = 0; round < 10; round += 1) {
    const questions = e.nextQuestions(trip, answers);
    if (questions.length === 0) return answers;
    for (const q of questions) {
      answers[q.id] = q.multiple
        ? q.choices.filter(() => pick() % 9 === 0).map((c) => c.code) // a few conditions
        : [q.choices[pick() % q.choices.length]?.code ?? ''];
    }
  }
  throw new Error('the questions never ended');
}

type Target = 'base' | 'choice' | 'region' | 'pair' | 'mode';
const picksArb = fc.array(fc.nat(), { minLength: 40, maxLength: 120 });

describe('screening engine properties', () => {
  it('every walk of its own questions ends with acceptable answers; totals are the parts; deterministic', () => {
    fc.assert(
      fc.property(tripArb, picksArb, (t, picks) => {
        const trip = toTrip(t);
        const answers = walk(engine, trip, picks);
        expect(engine.checkAnswers(trip, answers)).toEqual([]);
        const result = engine.assess(trip, answers);
        const covered = result.conditions.filter((c) => c.outcome === 'COVERED');
        expect(result.medicalPremiumMinor).toBe(covered.reduce((sum, c) => sum + c.medicalPremiumMinor, 0));
        expect(result.excessMinor).toBe(Math.max(0, ...covered.map((c) => c.excessMinor)));
        for (const c of result.conditions) {
          expect(c.medicalPremiumMinor).toBeGreaterThanOrEqual(0);
          expect(Number.isInteger(c.medicalPremiumMinor)).toBe(true);
          if (c.outcome !== 'COVERED') expect([c.medicalPremiumMinor, c.excessMinor]).toEqual([0, 0]);
        }
        if (result.conditions.length === 0) expect(result.score).toBe(1);
        expect(result.signposting).toBe(false); // no demo brand sells in GBP
        expect(buildScreeningEngine(catalogue, { testConditions: true }).assess(trip, answers)).toEqual(result);
      }),
      { numRuns: 300 },
    );
  });

  it('a condition score never falls when a weight rises (base, follow-up choice, region, pair, travel mode)', () => {
    const scaled = (factor: number, target: Target): CompiledCatalogue => {
      const s = catalogue.screening;
      const times = (w: number) => w * factor;
      return {
        ...catalogue,
        screening: {
          ...s,
          conditions: s.conditions.map((c) => ({
            ...c,
            weight: target === 'base' ? times(c.weight) : c.weight,
            questions: c.questions.map((q) => ({
              ...q,
              choices: q.choices.map((ch) => ({ ...ch, weight: target === 'choice' ? times(ch.weight) : ch.weight })),
            })),
          })),
          regions: Object.fromEntries(
            Object.entries(s.regions).map(([r, w]) => [r, target === 'region' ? times(w) : w]),
          ),
          pairs: Object.fromEntries(
            Object.entries(s.pairs).map(([c, m]) => [
              c,
              Object.fromEntries(Object.entries(m).map(([r, w]) => [r, target === 'pair' ? times(w) : w])),
            ]),
          ),
          travelMode: {
            ...s.travelMode,
            choices: s.travelMode.choices.map((ch) => ({
              ...ch,
              weight: target === 'mode' ? times(ch.weight) : ch.weight,
            })),
          },
        },
      };
    };
    fc.assert(
      fc.property(
        tripArb,
        picksArb,
        fc.double({ min: 1, max: 4, noNaN: true }),
        fc.constantFrom<Target>('base', 'choice', 'region', 'pair', 'mode'),
        (t, picks, factor, target) => {
          const trip = toTrip(t);
          const answers = walk(engine, trip, picks);
          const before = engine.assess(trip, answers);
          const after = buildScreeningEngine(scaled(factor, target), { testConditions: true }).assess(trip, answers);
          expect(after.score).toBeGreaterThanOrEqual(before.score);
          before.conditions.forEach((c, i) => expect(after.conditions[i]?.score).toBeGreaterThanOrEqual(c.score));
        },
      ),
      { numRuns: 200 },
    );
  });
});
