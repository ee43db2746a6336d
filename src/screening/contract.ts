import { minorDigits, toMajor } from '../kernel/money/units.js';
import type { Screening } from './schemas.js';
import type { ScreeningView } from './service.js';

/** A screening in the contract's shape: amounts as doubles in major units. */
export function toContractScreening(s: ScreeningView): Screening {
  const digits = minorDigits(s.currencyCode);
  const major = (minor: number) => toMajor(minor, digits);
  const a = s.result?.assessment;
  return {
    id: s.id,
    guid: s.travellerGuid,
    status: s.status,
    currencyCode: s.currencyCode,
    questions: s.questions.map((q) => ({ ...q, choices: [...q.choices] })),
    ...(s.result && a
      ? {
          result: {
            tamisReferenceNumber: s.result.referenceNumber,
            screeningDate: s.result.screeningDate,
            ...(s.authorizedPerson ? { authorizedPerson: s.authorizedPerson } : {}),
            outcome: a.outcome,
            score: a.score,
            conditions: a.conditions.map((c) => ({
              conditionCode: c.conditionCode,
              name: c.name,
              outcome: c.outcome,
              score: c.score,
              medicalPremium: major(c.medicalPremiumMinor),
              excess: major(c.excessMinor),
            })),
            medicalPremium: major(a.medicalPremiumMinor),
            excess: major(a.excessMinor),
            signposting: a.signposting,
          },
        }
      : {}),
  };
}
