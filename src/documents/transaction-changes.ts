import type { DetailRecord, PersonRecord } from '../policies/model.js';

/**
 * What an amendment changed against the transaction before it, in the terms a traveller reads:
 * the cover period, destinations, travellers, dependents, options and specified items added or
 * removed. A person is known by name and date of birth (a corrected name reads as one removed and
 * one added, which is what the certificate then says). Pure.
 */

export interface Transaction {
  readonly detail: DetailRecord;
  readonly destinationCodes: readonly string[];
}

export interface AddedRemoved<T> {
  readonly added: readonly T[];
  readonly removed: readonly T[];
}

type SpecifiedItem = DetailRecord['specifiedItems'][number];

export interface TransactionChanges {
  readonly coverPeriod?: { readonly was: readonly [string, string]; readonly now: readonly [string, string] };
  readonly destinations: AddedRemoved<string>;
  readonly travellers: AddedRemoved<PersonRecord>;
  readonly dependents: AddedRemoved<PersonRecord>;
  /** Option type codes (what a policy's option records as its name). */
  readonly options: AddedRemoved<string>;
  readonly specifiedItems: AddedRemoved<SpecifiedItem>;
}

function addedRemoved<T>(was: readonly T[], now: readonly T[], keyOf: (value: T) => string): AddedRemoved<T> {
  const before = new Set(was.map(keyOf));
  const after = new Set(now.map(keyOf));
  return { added: now.filter((v) => !before.has(keyOf(v))), removed: was.filter((v) => !after.has(keyOf(v))) };
}

const personKey = (p: PersonRecord) =>
  JSON.stringify([p.firstName.trim().toLowerCase(), p.surname.trim().toLowerCase(), p.dateOfBirth ?? null]);
const itemKey = (i: SpecifiedItem) => JSON.stringify([i.name, i.serialNumber ?? null, i.valueMinor]);

export function changesBetween(previous: Transaction, next: Transaction): TransactionChanges {
  const was = previous.detail;
  const now = next.detail;
  const periodChanged = was.departureDate !== now.departureDate || was.coverEndDate !== now.coverEndDate;
  return {
    ...(periodChanged
      ? {
          coverPeriod: {
            was: [was.departureDate, was.coverEndDate],
            now: [now.departureDate, now.coverEndDate],
          },
        }
      : {}),
    destinations: addedRemoved(previous.destinationCodes, next.destinationCodes, (code) => code.toUpperCase()),
    travellers: addedRemoved(was.travellers, now.travellers, personKey),
    dependents: addedRemoved(was.dependents, now.dependents, personKey),
    options: addedRemoved(
      was.options.map((o) => o.name),
      now.options.map((o) => o.name),
      (code) => code,
    ),
    specifiedItems: addedRemoved(was.specifiedItems, now.specifiedItems, itemKey),
  };
}

/** True when nothing a traveller reads on the certificate's cover changed (e.g. only an address). */
export function coverUnchanged(changes: TransactionChanges): boolean {
  const lists = [
    changes.destinations,
    changes.travellers,
    changes.dependents,
    changes.options,
    changes.specifiedItems,
  ] as const;
  return !changes.coverPeriod && lists.every((l) => l.added.length === 0 && l.removed.length === 0);
}
