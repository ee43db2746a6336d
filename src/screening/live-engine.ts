import type { AppContext } from '../context.js';
import { catalogueReaderFor } from '../catalogue/reader.js';
import { screeningEngineOf } from './engine/engine.js';
import type { ScreeningEngine } from './model.js';

/** The screening engine of the catalogue version that priced a quote (`<versionId>:<rates version>`). */
export type ScreeningEngineFor = (catalogueVersion: string) => Promise<ScreeningEngine>;

/**
 * The engines of the stored catalogue versions, read through the shared catalogue reader. The fixed
 * TEST_* conditions are offered everywhere but production (like the sandbox's test cards).
 */
export function liveScreeningEngines(context: AppContext): ScreeningEngineFor {
  const reader = catalogueReaderFor(context.db);
  const options = { testConditions: context.config.env !== 'production' };
  return async (catalogueVersion) => {
    const versionId = Number(catalogueVersion.split(':')[0]);
    const snapshot = await reader.snapshotOfVersion(versionId);
    if (!snapshot) throw new Error(`Screening: catalogue version ${versionId} is not stored`);
    return screeningEngineOf(snapshot, options);
  };
}
