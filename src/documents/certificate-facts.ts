import type { DetailRecord, PersonRecord, PolicyRecord } from '../policies/model.js';
import type { ConditionOutcome, ScreeningOnPolicy, TravellerOutcome } from '../screening/model.js';
import type { DocumentLanguage } from './labels.js';

/** Catalogue names in the document's language (brand-facts.ts `documentNamesOf`). */
export interface DocumentNames {
  readonly plan: string;
  /** By option type code (what a policy's option records as its name). */
  readonly options: Readonly<Record<string, string>>;
  /** Countries, regions and named lists, by their (extended) alpha-3 code. */
  readonly destinations: Readonly<Record<string, string>>;
  /** The home address's country. */
  readonly homeCountry: string;
}

/** Everything a policy document shows; the render reads nothing else (no clock, no database). */
export interface CertificateFacts {
  readonly policy: PolicyRecord;
  /** The transaction the document is for (one of `policy.details`). */
  readonly detail: DetailRecord;
  /** Brand name and its content items (brand.yaml `contentItems`) in `language`, by type. */
  readonly brand: { readonly code: string; readonly name: string; readonly content: Readonly<Record<string, string>> };
  readonly language: DocumentLanguage;
  /** Names the PDS the cover is under (wording id and translation). */
  readonly pdsReference: string;
  readonly names: DocumentNames;
  /** The destinations (codes) as this transaction left the policy, and as the one before left it. */
  readonly destinationCodes: readonly string[];
  readonly previousDestinationCodes?: readonly string[];
  /** A cancellation's effective date, YYYY-MM-DD in the policy's zone: the first day without cover. */
  readonly cancellationEffectiveDate?: string;
  /** The customer's document link: "your policy online". */
  readonly customerLinkUrl: string;
  /** The transaction's screened travellers and dependents (a certificate's "Medical conditions"); none: no section. */
  readonly medical?: readonly MedicalFacts[];
}

/**
 * The screenings a policy's travellers carry (`travelClear.tamisReferenceNumber`), read at render
 * time from the screening area (documents/live-ports.ts wires it). Health data: it goes into the
 * document's bytes only, never into a log, an event or an e-mail body.
 */
export interface PolicyScreenings {
  onPolicy(quoteId: string, references: readonly string[]): Promise<readonly ScreeningOnPolicy[]>;
}

/** One screened person of a transaction, conditions named in the document's language. */
export interface MedicalFacts {
  readonly person: PersonRecord;
  readonly reference: string;
  /** YYYY-MM-DD. */
  readonly screeningDate: string;
  /** Opted in for medical cover (`travelClear.isCovered`): without it no condition is covered. */
  readonly coverChosen: boolean;
  readonly outcome: TravellerOutcome;
  readonly conditions: readonly {
    readonly name: string;
    readonly outcome: ConditionOutcome;
    readonly medicalPremiumMinor: number;
    readonly excessMinor: number;
  }[];
  /** The UK medical cover directory sentence is printed. */
  readonly signposting: boolean;
}
