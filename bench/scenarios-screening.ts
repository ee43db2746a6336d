import { seedScreenings } from './seed/screenings.js';
import { AUTHORIZED_PERSON, screeningSupply, type ScreeningStep } from './screening-supply.js';
import {
  bearer,
  BRAND,
  LOGIN,
  quoteSeeder,
  supplyCount,
  type BenchRun,
  type Engine,
  type Scenario,
} from './scenario.js';

/**
 * Screenings (answer, complete) or screened quotes (refresh) prepared per second of load
 * (`--screening-supply` overrides): about twice what each engine answered under load (issue 30's
 * first runs), so a run never runs out and the preparation stays short.
 */
const SCREENING_SUPPLY_PER_SECOND: Record<ScreeningStep, Record<Engine, number>> = {
  answer: { sqlite: 1_500, postgres: 800 },
  complete: { sqlite: 2_000, postgres: 1_000 },
  refresh: { sqlite: 1_500, postgres: 800 },
};

const screeningCount = (run: BenchRun, step: ScreeningStep) =>
  supplyCount(run, run.screeningSupplyPerSecond ?? SCREENING_SUPPLY_PER_SECOND[step][run.engine]);

/** A row's request at `step`, on its own prepared screening (or quote) per request. */
const screeningRow =
  (step: ScreeningStep, label: string): Scenario['prepare'] =>
  async (api, _fixtures, run) =>
    screeningSupply(api, await bearer(api), {
      step,
      count: screeningCount(run, step),
      seedQuotes: quoteSeeder(run, label),
      seedScreenings: (travellers, batches, complete) =>
        seedScreenings(run.env, {
          brandCode: BRAND,
          login: LOGIN.username,
          travellers,
          authorizedPerson: AUTHORIZED_PERSON,
          batches,
          complete,
          onProgress: (done) => run.progress?.(`${label}: ${done}/${travellers.length} screenings`),
        }),
      ...(run.progress ? { progress: run.progress } : {}),
    });

/** The medical screening rows (issue 30), measured beside the purchase. */
export const SCREENING_SCENARIOS: Scenario[] = [
  {
    name: 'screeningAnswer',
    description:
      '…/quote/{id}/travellers/{guid}/screening/answers: a different traveller per request (the Bali quote, COMP, gate questions answered YES) declares travel by air and two conditions (high blood pressure, type 2 diabetes), answered with their follow-up questions; answers sealed.',
    prepare: screeningRow('answer', 'screeningAnswer'),
  },
  {
    name: 'screeningComplete',
    description:
      '…/screening/complete: a different fully answered screening per request (the two conditions, follow-ups answered), assessed by the engine (COVERED with a medical premium) and its result stored sealed.',
    prepare: screeningRow('complete', 'screeningComplete'),
  },
  {
    name: 'quoteRefreshScreened',
    description:
      'PUT /quotes/v2/{brand}/quote/{id}, stage MEDICAL_SCREENING: a different quote per request (the Bali trip, COMP) whose two adults completed their screenings, re-evaluated with both medical premiums as lines of their own and stored.',
    prepare: screeningRow('refresh', 'quoteRefreshScreened'),
  },
];
