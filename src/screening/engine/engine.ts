import type { BrandCode } from '../../kernel/brands.js';
import type { BrandCatalogue, Destination } from '../../catalogue/model.js';
import type { CatalogueSnapshot } from '../../catalogue/reader.js';
import type { ScreeningCatalogue } from '../../catalogue/screening.js';
import type { ScreeningAnswers, ScreeningEngine, ScreeningTrip } from '../model.js';
import { assessAnswers } from './assess.js';
import type { Declarable, EngineData } from './data.js';
import { answerProblems, knownQuestionIds, present, unanswered } from './flow.js';
import { searchConditions } from './search.js';

/** What the engine reads of a catalogue version: a CompiledCatalogue, or a snapshot's maps' values. */
export interface ScreeningSource {
  readonly screening: ScreeningCatalogue;
  readonly brands: Iterable<Pick<BrandCatalogue, 'brandCode' | 'screening'>>;
  readonly destinations: Iterable<Pick<Destination, 'code' | 'ratingRegion'>>;
}

export interface ScreeningEngineOptions {
  /** Offer the fixed TEST_* conditions (model.ts): every environment but production. */
  readonly testConditions: boolean;
}

/**
 * The screening engine of one catalogue version: pure and deterministic (no clock, no I/O, no
 * randomness). Every method but `isOffered` throws a programming error for a plan that offers no
 * screening; `assess` throws for answers that are incomplete or have problems.
 */
export function buildScreeningEngine(source: ScreeningSource, options: ScreeningEngineOptions): ScreeningEngine {
  const rules = source.screening;
  const declarable: Declarable[] = [
    ...rules.conditions.map((rule) => ({ kind: 'RULE' as const, rule })),
    ...(options.testConditions ? rules.testConditions.map((test) => ({ kind: 'TEST' as const, test })) : []),
  ];
  const data: EngineData = {
    rules,
    declarable,
    brands: new Map([...source.brands].map((b) => [b.brandCode, b.screening])),
    regionOf: new Map([...source.destinations].map((d) => [d.code, d.ratingRegion])),
  };
  const known = knownQuestionIds(data);
  const isOffered = (brandCode: BrandCode, planCode: string): boolean =>
    data.brands.get(brandCode)?.plans[planCode] !== undefined && rules.gate.length > 0;
  const offered = (trip: ScreeningTrip): void => {
    if (!isOffered(trip.brandCode, trip.planCode))
      throw new Error(`Screening: plan ${trip.brandCode}/${trip.planCode} offers no screening`);
  };
  return {
    isOffered,
    checkAnswers(trip: ScreeningTrip, answers: ScreeningAnswers) {
      offered(trip);
      return answerProblems(data, known, answers);
    },
    nextQuestions(trip: ScreeningTrip, answers: ScreeningAnswers) {
      offered(trip);
      return unanswered(data, answers).map((q) => present(q, trip.language));
    },
    assess(trip: ScreeningTrip, answers: ScreeningAnswers) {
      offered(trip);
      const problems = answerProblems(data, known, answers);
      // Never which questions: a follow-up's id names the condition (health data).
      if (problems.length > 0) throw new Error(`Screening: ${problems.length} answer problem(s); check answers first`);
      if (unanswered(data, answers).length > 0) throw new Error('Screening: answers are not complete');
      return assessAnswers(data, trip, answers);
    },
    findConditions(trip: ScreeningTrip, query: string) {
      offered(trip);
      return searchConditions(data, trip.language, query);
    },
  };
}

const perSnapshot = new WeakMap<CatalogueSnapshot, Map<boolean, ScreeningEngine>>();

/** The engine of a catalogue version held in memory, built once per snapshot and option. */
export function screeningEngineOf(snapshot: CatalogueSnapshot, options: ScreeningEngineOptions): ScreeningEngine {
  let engines = perSnapshot.get(snapshot);
  if (!engines) perSnapshot.set(snapshot, (engines = new Map<boolean, ScreeningEngine>()));
  let engine = engines.get(options.testConditions);
  if (!engine) {
    const source = {
      screening: snapshot.screening,
      brands: snapshot.brands.values(),
      destinations: snapshot.destinations.values(),
    };
    engine = buildScreeningEngine(source, options);
    engines.set(options.testConditions, engine);
  }
  return engine;
}
