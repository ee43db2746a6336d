import type { CatalogueSnapshot } from '../catalogue/reader.js';
import type { Executor } from '../db/database.js';
import type { ScreeningOnPolicy } from './model.js';
import { screeningsOfQuoteRows } from './repository.js';

/** What reading a policy's screenings needs: the database, the sealing secret, the catalogue versions. */
export interface PolicyScreeningDeps {
  readonly db: Executor;
  readonly secret: string;
  readonly snapshotOfVersion: (versionId: number) => Promise<CatalogueSnapshot | undefined>;
}

/**
 * The completed screenings of a sold quote whose references the policy's travellers carry
 * (`travelClear.tamisReferenceNumber`), for the policy's documents. Condition names come in every
 * language of the catalogue version the screening was made under. The sealed conditions are
 * opened in memory only; nothing here logs. The caller has established the policy is the reader's.
 */
export async function screeningsOnPolicy(
  deps: PolicyScreeningDeps,
  quoteId: string,
  references: readonly string[],
): Promise<ScreeningOnPolicy[]> {
  if (references.length === 0) return [];
  const wanted = new Set(references);
  const stored = await screeningsOfQuoteRows(deps.db, deps.secret, quoteId);
  const snapshots = new Map<number, CatalogueSnapshot | undefined>();
  const answers: ScreeningOnPolicy[] = [];
  for (const s of stored) {
    const result = s.result;
    if (s.status !== 'COMPLETED' || !result || !wanted.has(result.referenceNumber)) continue;
    const versionId = Number(s.catalogueVersion.split(':')[0]);
    if (!snapshots.has(versionId)) snapshots.set(versionId, await deps.snapshotOfVersion(versionId));
    const snapshot = snapshots.get(versionId);
    answers.push({
      reference: result.referenceNumber,
      screeningDate: result.screeningDate.slice(0, 10),
      outcome: result.assessment.outcome,
      conditions: result.assessment.conditions.map((c) => ({
        conditionCode: c.conditionCode,
        names: snapshot ? namesOf(snapshot, c.conditionCode) : {},
        assessedName: c.name,
        outcome: c.outcome,
        medicalPremiumMinor: c.medicalPremiumMinor,
        excessMinor: c.excessMinor,
      })),
      signposting: result.assessment.signposting,
    });
  }
  return answers;
}

function namesOf(snapshot: CatalogueSnapshot, conditionCode: string): Readonly<Record<string, string>> {
  const rules = snapshot.screening;
  const found =
    rules.conditions.find((c) => c.code === conditionCode) ??
    rules.testConditions.find((t) => t.code === conditionCode);
  return found?.names ?? {};
}
