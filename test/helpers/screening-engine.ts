import { validateCatalogue } from '../../src/catalogue/compile.js';
import { buildScreeningEngine } from '../../src/screening/engine/engine.js';
import type { ScreeningEngineFor } from '../../src/screening/live-engine.js';
import type { ScreeningEngine } from '../../src/screening/model.js';

let engine: Promise<ScreeningEngine> | undefined;

/**
 * The real screening engine of the repository's catalogue (with the TEST_* conditions), for apps
 * whose quotes are priced by in-memory ports (no stored catalogue version to read it from).
 */
export const catalogueScreeningEngine: ScreeningEngineFor = () =>
  (engine ??= validateCatalogue('catalogue').then(({ catalogue, problems }) => {
    if (!catalogue) throw new Error(`catalogue invalid: ${problems.length} problem(s)`);
    return buildScreeningEngine(catalogue, { testConditions: true });
  }));
