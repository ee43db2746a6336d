import type { PolicyHolderInput, QuoteInput } from '../quotes/schemas.js';
import { TRIP_DATES } from '../quotes/validation/trip.js';

/**
 * What differs between a policy's current quote input and the one an amendment asks for, each
 * difference sorted into the category the servicing rules allow or refuse. Request metadata
 * (culture, declarations, external ids, validation) and name, contact and address-line
 * corrections are not changes. Pure.
 */

export type ChangeCategory =
  /** Never changeable on an issued policy. */
  | 'fixed'
  | 'dates'
  | 'destinations'
  | 'travellers'
  | 'options'
  /** Priced, outside the four categories (trip value, donation): free before departure. */
  | 'other';

export interface Change {
  readonly kind: ChangeCategory;
  /** The field's name as a partner knows it (`departureDate`, `dateOfBirth`). */
  readonly field: string;
  /** Path inside the quote input, e.g. `policyHolders[1].dateOfBirth`. */
  readonly path: string;
  /** The asked-for value. */
  readonly value?: unknown;
}

/** A stable text of a value: keys sorted, `validation` and empty values left out. */
function canonical(value: unknown): string {
  // Wrapped in an array so an absent value has a text too (`[null]`).
  return JSON.stringify([value], (key, v: unknown) => {
    if (key === 'validation' || v === null) return undefined;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)));
    }
    return v;
  });
}

const sortedCanonical = (values: readonly unknown[]) => canonical(values.map(canonical).sort());

/** The opted-in basic options (opted-out and absent are the same). */
function optedIn(input: QuoteInput): string {
  return sortedCanonical(
    (input.basicOptions ?? []).filter((o) => o.isOptedIn === true).map((o) => ({ ...o, isOptedIn: true })),
  );
}

const activities = (input: QuoteInput) =>
  canonical([...(input.adventureActivitiesOption?.adventureActivityIds ?? [])].sort((a, b) => a - b));
const items = (input: QuoteInput) =>
  sortedCanonical((input.specifiedItemOption?.specifiedItems ?? []).map(({ guid: _guid, ...item }) => item));
const destinations = (input: QuoteInput) => canonical([...new Set(input.destinationCountryCodes ?? [])].sort());

/**
 * Holders by guid and occurrence (a holder without one by its place in the list): a guid repeated
 * is one more traveller, never a second look at the same one.
 */
function holdersOf(input: QuoteInput): Map<string, { holder: PolicyHolderInput; index: number }> {
  const seen = new Map<string, number>();
  return new Map(
    (input.policyHolders ?? []).map((holder, index) => {
      const guid = holder.guid ?? `#${index}`;
      const occurrence = (seen.get(guid) ?? 0) + 1;
      seen.set(guid, occurrence);
      return [`${guid}\u0000${occurrence}`, { holder, index }];
    }),
  );
}

/** Each holder whose guid an earlier holder of the list already has, with its index. */
export function repeatedGuids(input: QuoteInput): { guid: string; index: number }[] {
  const seen = new Set<string>();
  return (input.policyHolders ?? []).flatMap(({ guid }, index) => {
    if (guid === undefined) return [];
    if (seen.has(guid)) return [{ guid, index }];
    seen.add(guid);
    return [];
  });
}

function holderChanges(current: QuoteInput, next: QuoteInput): Change[] {
  const before = holdersOf(current);
  const after = holdersOf(next);
  const changes: Change[] = [];
  const added = [...after.keys()].some((key) => !before.has(key));
  const removed = [...before.keys()].some((key) => !after.has(key));
  if (added || removed) changes.push({ kind: 'travellers', field: 'policyHolders', path: 'policyHolders' });
  for (const [key, { holder, index }] of after) {
    const was = before.get(key)?.holder;
    if (!was) continue;
    const at = `policyHolders[${index}]`;
    for (const field of ['dateOfBirth', 'age'] as const) {
      if ((holder[field] ?? null) !== (was[field] ?? null))
        changes.push({ kind: 'fixed', field, path: `${at}.${field}`, value: holder[field] });
    }
    if ((holder.isDependent ?? false) !== (was.isDependent ?? false)) {
      changes.push({ kind: 'travellers', field: 'isDependent', path: `${at}.isDependent`, value: holder.isDependent });
    }
    if (canonical(holder.travelClearOption) !== canonical(was.travelClearOption)) {
      changes.push({ kind: 'options', field: 'travelClearOption', path: `${at}.travelClearOption` });
    }
  }
  return changes;
}

type Field = keyof QuoteInput;
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** Every difference between `current` and `next` that the servicing rules judge. */
export function changesOf(current: QuoteInput, next: QuoteInput): Change[] {
  const changes: Change[] = [];
  const field = (kind: ChangeCategory, name: Field, differs: boolean) => {
    if (differs) changes.push({ kind, field: name, path: name, value: next[name] });
  };
  field('fixed', 'quoteType', (current.quoteType ?? null) !== (next.quoteType ?? null));
  field('fixed', 'planId', (current.planId ?? 0) !== (next.planId ?? 0));
  for (const name of ['countryCode', 'provinceCode'] as const) {
    const value = next.homeAddress?.[name];
    if ((current.homeAddress?.[name] ?? null) !== (value ?? null)) {
      changes.push({ kind: 'fixed', field: name, path: `homeAddress.${name}`, value });
    }
  }
  field('fixed', 'campaignCode', (current.campaignCode ?? null) !== (next.campaignCode ?? null));
  for (const name of TRIP_DATES) field('dates', name, (current[name] ?? null) !== (next[name] ?? null));
  field('destinations', 'destinationCountryCodes', destinations(current) !== destinations(next));
  changes.push(...holderChanges(current, next));
  field('options', 'basicOptions', optedIn(current) !== optedIn(next));
  field('options', 'adventureActivitiesOption', activities(current) !== activities(next));
  field('options', 'specifiedItemOption', items(current) !== items(next));
  field('options', 'cancellationOption', !same(current.cancellationOption, next.cancellationOption));
  field('other', 'tripValue', (current.tripValue ?? null) !== (next.tripValue ?? null));
  field('other', 'footprintsDonation', !same(current.footprintsDonation, next.footprintsDonation));
  return changes;
}
