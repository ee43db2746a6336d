/**
 * The partner account's rules on one payment (pure): what a capture, a release or a credit may
 * take, judged from the payment's entries so far. A hold is approved at once (the partner's
 * credit is its contract with the insurer, not a balance checked here); the charge is what the
 * partner owes and its monthly statement lists; a credit never exceeds what was charged.
 */

export const ENTRY_KINDS = ['hold', 'charge', 'release', 'credit'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** One movement on an account (the table's row, as the gateway sees it). */
export interface AccountEntry {
  readonly idempotencyKey: string;
  readonly paymentId: string;
  readonly partnerId: number;
  readonly brandCode: string;
  readonly kind: EntryKind;
  readonly amountMinor: number;
  readonly currency: string;
  readonly reference: string;
  readonly createdAt: string;
}

/** Whose account a payment is on: the partner, at the brand it sells under. */
export interface AccountOwner {
  readonly partnerId: number;
  readonly brandCode: string;
}

/** Why a movement was refused (the gateway's `rejected` outcome). */
export interface AccountRefusal {
  readonly code: string;
  readonly message: string;
}

/** What one payment's entries add up to (minor units). */
export interface PaymentPosition {
  readonly hold: AccountEntry;
  readonly chargedMinor: number;
  readonly creditedMinor: number;
  readonly released: boolean;
}

const sum = (entries: readonly AccountEntry[], kind: EntryKind) =>
  entries.filter((e) => e.kind === kind).reduce((total, e) => total + e.amountMinor, 0);

/** A payment's position from its entries; undefined when no hold opened it. */
export function positionOf(entries: readonly AccountEntry[]): PaymentPosition | undefined {
  const hold = entries.find((e) => e.kind === 'hold');
  if (!hold) return undefined;
  return {
    hold,
    chargedMinor: sum(entries, 'charge'),
    creditedMinor: sum(entries, 'credit'),
    released: entries.some((e) => e.kind === 'release'),
  };
}

const NOT_FOUND: AccountRefusal = { code: 'PAYMENT_NOT_FOUND', message: 'No such payment on the account.' };
const currencyOf = (position: PaymentPosition, currency: string): AccountRefusal | undefined =>
  currency === position.hold.currency
    ? undefined
    : { code: 'CURRENCY_MISMATCH', message: `The payment is in ${position.hold.currency}.` };

/** A charge of `amountMinor` against the hold: what is left of it, in its currency, and not released. */
export function chargeRefusal(position: PaymentPosition | undefined, amountMinor: number, currency: string) {
  if (!position) return NOT_FOUND;
  if (position.released) return { code: 'NOT_AUTHORISED', message: 'The hold was released.' };
  const left = position.hold.amountMinor - position.chargedMinor;
  return (
    currencyOf(position, currency) ??
    (amountMinor > left ? { code: 'AMOUNT_EXCEEDS_AUTHORISED', message: `At most ${left} can be charged.` } : undefined)
  );
}

/** Releasing the hold: only one nothing was charged against, once. */
export function releaseRefusal(position: PaymentPosition | undefined): AccountRefusal | undefined {
  if (!position) return NOT_FOUND;
  if (position.chargedMinor > 0)
    return { code: 'ALREADY_CAPTURED', message: 'A charged payment is credited, not released.' };
  if (position.released) return { code: 'NOT_VOIDABLE', message: 'The hold was released already.' };
  return undefined;
}

/** A credit of `amountMinor`: never more than was charged and not credited yet. */
export function creditRefusal(position: PaymentPosition | undefined, amountMinor: number, currency: string) {
  if (!position) return NOT_FOUND;
  const left = position.chargedMinor - position.creditedMinor;
  return (
    currencyOf(position, currency) ??
    (amountMinor > left ? { code: 'AMOUNT_EXCEEDS_CAPTURED', message: `At most ${left} can be credited.` } : undefined)
  );
}

/** What an account owes at the end of its entries: charged − credited (minor units, one currency). */
export const balanceOf = (entries: readonly AccountEntry[]): number => sum(entries, 'charge') - sum(entries, 'credit');
