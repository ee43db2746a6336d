import type { Notification, Validation } from '../kernel/notifications/notification.js';
import type { QuoteInput } from './schemas.js';
import { isBlocking } from '../kernel/notifications/problems.js';

/** The Validation of one object: the notifications whose property lies inside `path`. */
export function validationAt(path: string, notifications: readonly Notification[]): Validation {
  const errors = notifications.filter(
    (n) =>
      n.property !== undefined &&
      (n.property === path || n.property.startsWith(`${path}.`) || n.property.startsWith(`${path}[`)),
  );
  return { isValid: !errors.some(isBlocking), errors };
}

type WithValidation = { validation?: Validation } | undefined;

/** A copy of `node` with its own validation. */
function mark<T extends WithValidation>(node: T, path: string, notifications: readonly Notification[]): T {
  if (node === undefined) return node;
  return Object.assign({}, node, { validation: validationAt(path, notifications) });
}

/**
 * A copy of the input where the input and each nested input object carry their own
 * `validation` (spec §7: nested input objects also carry `validation`). Any `validation` the
 * client sent is replaced: it is server-owned.
 */
export function withNestedValidation(input: QuoteInput, notifications: readonly Notification[]): QuoteInput {
  const p = 'input';
  const items = input.specifiedItemOption?.specifiedItems;
  // `mark` returns a fresh copy, so the nested objects are set on it in place (same keys, same order).
  return Object.assign(mark(input, p, notifications), {
    homeAddress: mark(input.homeAddress, `${p}.homeAddress`, notifications),
    alternateHomeAddress: mark(input.alternateHomeAddress, `${p}.alternateHomeAddress`, notifications),
    footprintsDonation: mark(input.footprintsDonation, `${p}.footprintsDonation`, notifications),
    adventureActivitiesOption: mark(input.adventureActivitiesOption, `${p}.adventureActivitiesOption`, notifications),
    cancellationOption: mark(input.cancellationOption, `${p}.cancellationOption`, notifications),
    specifiedItemOption:
      input.specifiedItemOption &&
      Object.assign(mark(input.specifiedItemOption, `${p}.specifiedItemOption`, notifications), {
        specifiedItems: items?.map((item, i) =>
          mark(item, `${p}.specifiedItemOption.specifiedItems[${i}]`, notifications),
        ),
      }),
    basicOptions: input.basicOptions?.map((option, i) => mark(option, `${p}.basicOptions[${i}]`, notifications)),
    policyHolders: input.policyHolders?.map((holder, i) => {
      const path = `${p}.policyHolders[${i}]`;
      return Object.assign(mark(holder, path, notifications), {
        travelClearOption: mark(holder.travelClearOption, `${path}.travelClearOption`, notifications),
      });
    }),
  });
}
