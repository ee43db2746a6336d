import { amountTextIn } from '../kernel/money/currency.js';
import { instantIn } from '../kernel/calendar/zones.js';
import { isolated, type PdfWriter } from '../kernel/pdf/writer.js';
import { TRANSACTION_TYPE, type PersonRecord, type PolicyRecord } from '../policies/model.js';
import { AMENDMENT_FEE, CANCELLATION_FEE } from '../policy-changes/rules.js';
import type { CertificateFacts } from './certificate-facts.js';
import type { DocumentLabels } from './labels.js';
import { changesBetween, coverUnchanged, type AddedRemoved } from './transaction-changes.js';
import { amountOfType, transactionMinor } from '../policies/transaction-amounts.js';

/** The sections of a policy document, in the order `renderPolicyDocument` writes them. */

type Section = (out: PdfWriter, facts: CertificateFacts, labels: DocumentLabels) => void;

/** An amount in the policy's currency, written the document's language's way; a minus only on a part that lowers a charge (a discount). */
const moneyOf = (policy: PolicyRecord, language: string) =>
  amountTextIn(language, policy.currency.code, policy.currency.minorUnits);

const dateTimeIn = (at: Date, zone: string) => instantIn(at, zone).localDateTime.slice(0, 16).replace('T', ' ');

// The name isolated: a right-to-left name must not pull the date after it into its run.
const personLine = (person: PersonRecord, labels: DocumentLabels) =>
  [
    isolated([person.title, person.firstName, person.surname].filter(Boolean).join(' ')),
    person.dateOfBirth ?? (person.age === undefined ? undefined : String(person.age)),
    person.isPrimary ? `(${labels.primary})` : undefined,
  ]
    .filter(Boolean)
    .join(', ');

const destinationNames = (facts: CertificateFacts, codes: readonly string[]) =>
  codes.map((code) => facts.names.destinations[code] ?? code);

const optionName = (facts: CertificateFacts, code: string) => facts.names.options[code] ?? code;

export const transactionSection: Section = (out, { policy, detail, names }, labels) => {
  out.field(labels.policyNumber, policy.policyNumber);
  out.field(labels.transaction, `${detail.policyDetailNumber} (${labels.sequence} ${detail.sequenceNumber})`);
  out.field(labels.plan, `${names.plan} (${policy.plan.code})`);
  const issued = dateTimeIn(new Date(detail.audit.createdAt), policy.presentationTimeZoneCode);
  out.field(labels.issued, `${issued} (${policy.presentationTimeZoneCode})`);
};

/** The cover the transaction leaves: its period, where to, and the traveller's home country. */
export const coverSection: Section = (out, facts, labels) => {
  const { detail } = facts;
  out.field(labels.coverPeriod, `${detail.departureDate} ${labels.coverTo} ${detail.coverEndDate}`);
  destinationFields(out, facts, labels);
};

/** A cancellation: from when, and whether cover has already ended when the notice is issued. */
export const cancellationSection: Section = (out, facts, labels) => {
  const { policy, detail } = facts;
  const zone = policy.presentationTimeZoneCode;
  const issuedOn = dateTimeIn(new Date(detail.audit.createdAt), zone).slice(0, 10);
  const effective = facts.cancellationEffectiveDate ?? issuedOn;
  out.line(labels.cancelledNotice);
  out.field(labels.effectiveFrom, `${effective} (${zone})`);
  out.line(effective <= issuedOn ? labels.coverHasEnded : labels.coverWillEnd);
  destinationFields(out, facts, labels);
};

function destinationFields(out: PdfWriter, facts: CertificateFacts, labels: DocumentLabels): void {
  const destinations = destinationNames(facts, facts.destinationCodes).join(', ');
  out.field(labels.destinations, destinations || labels.none);
  out.field(labels.countryOfResidence, facts.names.homeCountry);
}

/** What an amendment changed against the transaction before it. */
export const amendmentSection: Section = (out, facts, labels) => {
  const { policy, detail } = facts;
  const previous = policy.details.find((d) => d.sequenceNumber === detail.sequenceNumber - 1);
  if (!previous) return;
  const changes = changesBetween(
    { detail: previous, destinationCodes: facts.previousDestinationCodes ?? facts.destinationCodes },
    { detail, destinationCodes: facts.destinationCodes },
  );
  out.heading(labels.changes);
  if (coverUnchanged(changes)) {
    out.line(labels.noCoverChange);
    return;
  }
  if (changes.coverPeriod) {
    const period = ([from, to]: readonly [string, string]) => `${from} ${labels.coverTo} ${to}`;
    out.field(labels.coverPeriod, labels.nowWas(period(changes.coverPeriod.now), period(changes.coverPeriod.was)));
  }
  const list = <T>(change: AddedRemoved<T>, text: (value: T) => string, added: string, removed: string) => {
    if (change.added.length > 0) out.field(added, change.added.map(text).join(', '));
    if (change.removed.length > 0) out.field(removed, change.removed.map(text).join(', '));
  };
  const name = (code: string) => destinationNames(facts, [code])[0] ?? code;
  list(changes.destinations, name, labels.destinationsAdded, labels.destinationsRemoved);
  const person = (p: PersonRecord) => [p.firstName, p.surname].join(' ');
  list(changes.travellers, person, labels.travellersAdded, labels.travellersRemoved);
  list(changes.dependents, person, labels.dependentsAdded, labels.dependentsRemoved);
  list(changes.options, (code) => optionName(facts, code), labels.optionsAdded, labels.optionsRemoved);
  list(changes.specifiedItems, (item) => item.name, labels.itemsAdded, labels.itemsRemoved);
};

export const peopleSection: Section = (out, { detail }, labels) => {
  out.heading(labels.travellers);
  for (const person of detail.travellers) out.line(personLine(person, labels));
  if (detail.dependents.length > 0) {
    out.heading(labels.dependents);
    for (const person of detail.dependents) out.line(personLine(person, labels));
  }
};

export const optionsSection: Section = (out, facts, labels) => {
  const { policy, detail } = facts;
  const money = moneyOf(policy, facts.language);
  out.heading(labels.options);
  if (detail.options.length === 0) out.line(labels.none);
  for (const option of detail.options) out.line(optionName(facts, option.name));
  // The brand's own words on what options are subject to (brand.yaml OPTIONDISCLAIMER).
  if (detail.options.length > 0 && facts.brand.content.OPTIONDISCLAIMER)
    out.line(facts.brand.content.OPTIONDISCLAIMER, 8);
  if (detail.specifiedItems.length > 0) {
    out.heading(labels.specifiedItems);
    for (const item of detail.specifiedItems)
      out.line(`${item.name}${item.serialNumber ? ` (${item.serialNumber})` : ''}: ${money(item.valueMinor)}`);
  }
  out.field(labels.excess, money(policy.excessMinor));
};

/**
 * The transaction's money, part by part, each part's sign in words. A charge lists what adds up to
 * the amount paid (a discount as a minus); a refund lists each part refunded and each part kept
 * from it (a fee, a discount withdrawn), all positive, and the amount refunded.
 */
export const moneySection: Section = (out, { policy, detail, language }, labels) => {
  const money = moneyOf(policy, language);
  const feeName = (name: string | undefined) =>
    name === CANCELLATION_FEE
      ? labels.cancellationFee
      : name === AMENDMENT_FEE
        ? labels.amendmentFee
        : (name ?? labels.fee);
  // Each part's share of the total: + the customer pays it, − it comes back to the customer.
  const parts: { label: string; minor: number }[] = [
    { label: labels.premium, minor: amountOfType(detail, TRANSACTION_TYPE.Premium) },
    { label: labels.discount, minor: -amountOfType(detail, TRANSACTION_TYPE.Discount) },
    ...detail.financials.flatMap((f) =>
      f.transactionTypeId === TRANSACTION_TYPE.Tax
        ? [{ label: f.name ?? labels.tax, minor: f.amountMinor }]
        : f.transactionTypeId === TRANSACTION_TYPE.Fee
          ? [{ label: feeName(f.name), minor: f.amountMinor }]
          : [],
    ),
    { label: labels.donation, minor: amountOfType(detail, TRANSACTION_TYPE.Donation) },
  ];
  const total = transactionMinor(detail);
  out.heading(labels.money);
  if (total < 0) {
    for (const part of parts.filter((p) => p.minor !== 0)) {
      if (part.minor < 0) out.field(labels.refundedPart(part.label), money(-part.minor));
      else out.field(labels.deductedPart(part.label), money(part.minor));
    }
    out.field(labels.amountRefunded, money(-total));
  } else {
    // The premium always shows on a charge; the other parts when there are any.
    for (const part of parts.filter((p, i) => i === 0 || p.minor !== 0)) out.field(part.label, money(part.minor));
    if (total === 0) out.line(labels.nothingPaid);
    else out.field(detail.actionType === 'Amendment' ? labels.additionalPremiumPaid : labels.amountPaid, money(total));
  }
  const toDate = policy.details
    .filter((d) => d.sequenceNumber <= detail.sequenceNumber)
    .reduce((sum, d) => sum + transactionMinor(d), 0);
  out.field(labels.paidToDate, money(toDate));
};

/**
 * Each contact once, under the document's own label: the emergency assistance phone, the claims
 * address, and "your policy online", which is the customer's document link (a brand's RSPORTALURL
 * names different things per brand, a claims portal for some, so it is not printed).
 */
export const contactsSection: Section = (out, facts, labels) => {
  const { brand } = facts;
  out.heading(labels.contacts);
  if (brand.content.EMERGENCYPHONE) out.field(labels.emergency, brand.content.EMERGENCYPHONE);
  if (brand.content.CLAIMSURL) out.field(labels.claims, brand.content.CLAIMSURL);
  out.field(labels.portal, facts.customerLinkUrl);
  out.field(labels.pds, facts.pdsReference);
  if (brand.content.EFOOTER) out.line(brand.content.EFOOTER, 8);
};
