import type { BrandCatalogue } from '../catalogue/model.js';
import { dateIn } from '../kernel/calendar/zones.js';
import { SERVICE_LOOK, type PageLook } from '../kernel/html/look.js';
import type { DetailRecord, PolicyRecord } from '../policies/model.js';
import type { PolicyActionType, PolicyStatus } from '../policies/schemas-detail.js';
import { brandFactsOf, documentLanguagesOf } from './brand-facts.js';
import type { DocumentLanguage } from './labels.js';
import type { DocumentNames } from './certificate-facts.js';
import type { StoredDocument } from './repository.js';

/** What the customer's pages show, gathered from the policy and the brand's catalogue content. */

/** The brand as its pages show it: its look, its contacts in the page's language, its languages. */
export interface LinkBrand {
  readonly look: PageLook;
  /** Content items by type (EMERGENCYPHONE, EMAILREPLYTOANDFROM, RSPORTALURL, CLAIMSURL, EFOOTER). */
  readonly content: Readonly<Record<string, string>>;
  /** Every language the brand's documents are in, the brand's default first, with its own name. */
  readonly languages: readonly { readonly code: DocumentLanguage; readonly name: string }[];
}

export interface PolicyPageFacts {
  readonly policyNumber: string;
  readonly status: PolicyStatus;
  readonly planName: string;
  readonly travellers: readonly string[];
  /** Departure and return of the trip as last bought (a cancellation keeps the dates it ended). */
  readonly trip: { readonly from: string; readonly to: string };
  readonly destinations: string;
  /** From the day it was issued (in the policy's zone) to the last day of cover. */
  readonly cover: { readonly from: string; readonly to: string };
  readonly transactions: readonly TransactionDocuments[];
}

export interface TransactionDocuments {
  readonly sequenceNumber: number;
  readonly actionType: PolicyActionType;
  /** The transaction's day in the policy's zone. */
  readonly date: string;
  /** One per language, the page's language first. */
  readonly documents: readonly StoredDocument[];
}

/** The look items (catalogue/*\/brand.yaml BRANDCOLOUR, BRANDLOGO; checked by catalogue validate). */
export function linkBrandOf(brand: BrandCatalogue, language: DocumentLanguage): LinkBrand {
  const { content } = brandFactsOf(brand, language);
  const logoSvg = content.BRANDLOGO;
  return {
    look: {
      name: brand.brand.name,
      colour: content.BRANDCOLOUR ?? SERVICE_LOOK.colour,
      ...(logoSvg ? { logoSvg } : {}),
    },
    content,
    languages: documentLanguagesOf(brand).map((code) => ({ code, name: brand.brand.languages[code] ?? code })),
  };
}

// One Intl formatter per zone (kernel/calendar): luxon's zone arithmetic per instant cost more than the page.
const dayIn = (instant: string, zone: string) => dateIn(new Date(instant), zone);

const fullName = (person: DetailRecord['travellers'][number]) =>
  [person.title, person.firstName, person.surname].filter(Boolean).join(' ');

/** The policy's facts and its documents grouped by transaction, each transaction's in `language` first. */
export function policyFactsOf(
  policy: PolicyRecord,
  documents: readonly StoredDocument[],
  language: DocumentLanguage,
  /** The catalogue's plan and destination names in `language` (brand-facts.ts); absent: as the policy recorded them. */
  names?: Pick<DocumentNames, 'plan' | 'destinations'>,
): PolicyPageFacts {
  const latest = policy.details.at(-1);
  if (!latest) throw new Error(`policy ${policy.policyNumber} has no transaction`);
  const bought = policy.details.findLast((d) => d.actionType !== 'Cancellation') ?? latest;
  const cancelled = policy.status === 'Cancelled' || latest.actionType === 'Cancellation';
  const zone = policy.presentationTimeZoneCode;
  const transactions = policy.details.map((detail) => ({
    sequenceNumber: detail.sequenceNumber,
    actionType: detail.actionType,
    date: dayIn(detail.audit.createdAt, zone),
    documents: documents
      .filter((d) => d.sequenceNumber === detail.sequenceNumber)
      .sort((a, b) => Number(b.language === language) - Number(a.language === language)),
  }));
  return {
    policyNumber: policy.policyNumber,
    status: cancelled ? 'Cancelled' : 'Active',
    planName: names?.plan ?? (policy.plan.shortDescription || policy.plan.code),
    travellers: [...bought.travellers, ...bought.dependents].map(fullName),
    trip: { from: bought.departureDate, to: bought.coverEndDate },
    destinations: names
      ? policy.destinations.codes
          .map((code, i) => names.destinations[code] ?? policy.destinations.names[i] ?? code)
          .join(', ')
      : (policy.destinations.displayDescription ?? policy.destinations.names.join(', ')),
    cover: { from: dayIn(policy.audit.createdAt, zone), to: latest.coverEndDate },
    transactions,
  };
}
