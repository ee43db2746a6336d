import type { AuthorizedPerson, ScreeningAnswers, ScreeningStatus, TravellerAssessment } from './model.js';

export type { AuthorizedPerson, ScreeningStatus };

/** A completed screening's result; `assessment.conditions` is empty once purged (health detail deleted). */
export interface ScreeningResult {
  /** Our reference: `TC-` and 16 upper-case base-32 characters (unique). */
  readonly referenceNumber: string;
  /** YYYY-MM-DD (UTC) of completion. */
  readonly screeningDate: string;
  readonly assessment: TravellerAssessment;
}

/** One traveller's screening as stored, in domain terms (STALE is derived on reading). */
export interface StoredScreening {
  readonly id: string;
  readonly quoteId: string;
  readonly partnerId: number;
  readonly travellerGuid: string;
  readonly status: Exclude<ScreeningStatus, 'STALE'>;
  readonly catalogueVersion: string;
  readonly tripFingerprint: string;
  readonly currencyCode: string;
  /** Undefined once purged. */
  readonly authorizedPerson?: AuthorizedPerson;
  readonly answers: ScreeningAnswers;
  readonly result?: ScreeningResult;
  readonly revision: number;
  readonly createdAt: string;
}
