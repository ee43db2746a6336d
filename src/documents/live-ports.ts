import { catalogueReaderFor } from '../catalogue/reader.js';
import type { AppContext } from '../context.js';
import { screeningsOnPolicy } from '../screening/policy-screenings.js';
import type { PolicyScreenings } from './certificate-facts.js';

/** The screenings of a running app's policies: the screening area's, under the configured sealing secret. */
export function policyScreeningsFor(context: AppContext): PolicyScreenings {
  const reader = catalogueReaderFor(context.db);
  const deps = {
    db: context.db,
    secret: context.config.auth.keyEncryptionSecret,
    snapshotOfVersion: (versionId: number) => reader.snapshotOfVersion(versionId),
  };
  return { onPolicy: (quoteId, references) => screeningsOnPolicy(deps, quoteId, references) };
}
