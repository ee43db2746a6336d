import type { CatalogueSnapshot } from '../catalogue/reader.js';
import type { Executor } from '../db/database.js';
import type { DetailRecord, PolicyRecord } from '../policies/model.js';
import { changesOfTransactions } from '../policy-changes/repository.js';
import { findPurchaseOfQuote } from '../purchases/repository.js';
import { brandFactsOf, documentNamesOf, pdsReferenceOf } from './brand-facts.js';
import type { CertificateFacts } from './certificate.js';
import type { MedicalFacts, PolicyScreenings } from './certificate-facts.js';
import type { DocumentLanguage } from './labels.js';

/** The customer's document link of a policy (`<PUBLIC_BASE_URL><BASE_PATH>/documents/v1/<value>`). */
export const customerLinkUrl = (linkBaseUrl: string, policy: Pick<PolicyRecord, 'policyDocumentAccessGuid'>) =>
  `${linkBaseUrl}/documents/v1/${encodeURIComponent(policy.policyDocumentAccessGuid)}`;

/**
 * What the documents of a policy's transactions show beyond the policy record, read once per
 * policy: the destinations each transaction left (the header keeps only the latest; a change
 * records its own version, the purchase its issue request), a cancellation's effective date (on
 * its change), and the catalogue's names. Answers the facts of one transaction in one language.
 */
export async function documentFactsFor(
  db: Executor,
  snapshot: CatalogueSnapshot,
  policy: PolicyRecord,
  linkBaseUrl: string,
  screenings: PolicyScreenings,
): Promise<(detail: DetailRecord, language: DocumentLanguage) => CertificateFacts> {
  const brand = snapshot.brands.get(policy.brandCode);
  if (!brand) throw new Error(`brand ${policy.brandCode} is not in the catalogue`);
  const changes = new Map(
    (await changesOfTransactions(db, policy.id)).map((change) => [change.sequenceNumber, change]),
  );
  // The purchase's destinations matter once a later transaction replaced them on the header.
  const purchase =
    policy.sequenceNumber > 1 ? await findPurchaseOfQuote(db, policy.quoteId, ['ISSUED', 'CAPTURED']) : undefined;
  const destinationsOf = (sequenceNumber: number): readonly string[] => {
    if (sequenceNumber === policy.sequenceNumber) return policy.destinations.codes;
    const change = changes.get(sequenceNumber);
    if (change) return change.transaction.version.destinations.codes;
    if (sequenceNumber === 1 && purchase) return purchase.issueRequest.destinations.codes;
    return policy.destinations.codes;
  };
  const medicalOf = await medicalFactsOf(screenings, policy);
  return (detail, language) => {
    const destinationCodes = destinationsOf(detail.sequenceNumber);
    const previous = detail.actionType === 'Amendment' ? destinationsOf(detail.sequenceNumber - 1) : undefined;
    const pricing = changes.get(detail.sequenceNumber)?.pricing;
    return {
      policy,
      detail,
      brand: brandFactsOf(brand, language),
      language,
      pdsReference: pdsReferenceOf(brand, policy.plan.planId, language),
      names: documentNamesOf(snapshot, brand, policy, detail, [...destinationCodes, ...(previous ?? [])], language),
      destinationCodes,
      ...(previous ? { previousDestinationCodes: previous } : {}),
      ...(pricing?.kind === 'CANCELLATION' ? { cancellationEffectiveDate: pricing.effectiveDate } : {}),
      customerLinkUrl: customerLinkUrl(linkBaseUrl, policy),
      ...(detail.actionType === 'Cancellation' ? {} : { medical: medicalOf(detail, language) }),
    };
  };
}

/**
 * The screenings the policy's people carry, read once (every transaction's people), answered per
 * transaction and language: each screened traveller and dependent of it, conditions named in the
 * language (the catalogue's name, else the one it was assessed with).
 */
async function medicalFactsOf(
  screenings: PolicyScreenings,
  policy: PolicyRecord,
): Promise<(detail: DetailRecord, language: DocumentLanguage) => MedicalFacts[]> {
  const peopleOf = (detail: DetailRecord) => [...detail.travellers, ...detail.dependents];
  const references = [
    ...new Set(policy.details.flatMap(peopleOf).flatMap((p) => p.travelClear?.tamisReferenceNumber ?? [])),
  ];
  const held = new Map((await screenings.onPolicy(policy.quoteId, references)).map((s) => [s.reference, s]));
  return (detail, language) =>
    peopleOf(detail).flatMap((person): MedicalFacts[] => {
      const clear = person.travelClear;
      const screening = clear?.tamisReferenceNumber ? held.get(clear.tamisReferenceNumber) : undefined;
      if (!clear || !screening) return [];
      return [
        {
          person,
          reference: screening.reference,
          screeningDate: screening.screeningDate,
          coverChosen: clear.isCovered,
          outcome: screening.outcome,
          conditions: screening.conditions.map((c) => ({
            name: c.names[language] ?? c.assessedName,
            outcome: c.outcome,
            medicalPremiumMinor: c.medicalPremiumMinor,
            excessMinor: c.excessMinor,
          })),
          signposting: screening.signposting,
        },
      ];
    });
}
