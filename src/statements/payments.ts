import { findPartnerByCode } from '../auth/repository.js';
import { brandTimeZone } from '../catalogue/service.js';
import { isBrandCode } from '../kernel/brands.js';
import { parseDate } from '../kernel/calendar/dates.js';
import { dateIn } from '../kernel/calendar/zones.js';
import { minorDigits } from '../kernel/money/units.js';
import { InvalidPaymentReceived, PaymentReferenceConflict } from './errors.js';
import type { PaymentReceived } from './model.js';
import { statementMonth } from './months.js';
import { recordPaymentReceived } from './repository.js';
import type { StatementDeps } from './service.js';

/** A payment as an operator records it (`statements record-payment`). */
export interface PaymentInput {
  readonly partnerCode: string;
  readonly brandCode: string;
  /** Major units as written, e.g. `1234.50`. */
  readonly amount: string;
  /** The day it was received (YYYY-MM-DD, the brand's time zone). */
  readonly receivedOn: string;
  readonly reference: string;
}

const REFERENCE = /^[\x21-\x7e](?:[\x20-\x7e]{0,98}[\x21-\x7e])?$/;

/** `amount` as minor units of a currency with `digits` decimals, if it is a positive amount written so. */
function minorOf(amount: string, digits: number): number | undefined {
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(amount);
  if (!match) return undefined;
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > digits) return undefined;
  const minor = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  return minor > 0 ? minor : undefined;
}

/**
 * Records a payment the partner made against its account under a brand, once per reference: the
 * same reference again answers the first record (`created` false), or a conflict when its amount
 * or day differ. The day may not be in the future nor in a closed month, so a closed statement's
 * figures never change.
 */
export async function recordPayment(
  deps: StatementDeps,
  input: PaymentInput,
): Promise<{ readonly payment: PaymentReceived & { readonly currencyCode: string }; readonly created: boolean }> {
  if (!isBrandCode(input.brandCode)) throw new InvalidPaymentReceived('brand', `Unknown brand '${input.brandCode}'.`);
  const partner = await findPartnerByCode(deps.db, input.partnerCode);
  if (!partner) throw new InvalidPaymentReceived('partner', `Unknown partner '${input.partnerCode}'.`);
  if (!REFERENCE.test(input.reference))
    throw new InvalidPaymentReceived('reference', 'The reference must be 1 to 100 printable ASCII characters.');
  const snapshot = await deps.catalogue.snapshot();
  const brand = snapshot.brands.get(input.brandCode);
  if (!brand) throw new InvalidPaymentReceived('brand', `The brand '${input.brandCode}' is not in the catalogue.`);
  const currencyCode = brand.brand.currencyCode;
  const amountMinor = minorOf(input.amount, minorDigits(currencyCode));
  if (amountMinor === undefined)
    throw new InvalidPaymentReceived(
      'amount',
      `The amount must be positive, in ${currencyCode} with at most ${String(minorDigits(currencyCode))} decimals.`,
    );
  const zone = brandTimeZone(snapshot, brand);
  const now = deps.clock();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.receivedOn) || !parseDate(input.receivedOn))
    throw new InvalidPaymentReceived('date', 'The date must be a calendar date, YYYY-MM-DD.');
  if (input.receivedOn > dateIn(now, zone))
    throw new InvalidPaymentReceived('date', `The date ${input.receivedOn} is in the future in ${zone}.`);
  if (statementMonth(input.receivedOn.slice(0, 7), zone, now).status === 'CLOSED')
    throw new InvalidPaymentReceived(
      'date',
      `The statement of ${input.receivedOn.slice(0, 7)} is closed; record the payment on a day of the open month.`,
    );
  const recorded = await recordPaymentReceived(
    deps.db,
    { partnerId: partner.id, brandCode: input.brandCode },
    {
      reference: input.reference,
      amountMinor,
      receivedOn: input.receivedOn,
      recordedAt: now.toISOString(),
      currencyCode,
    },
  );
  const { payment } = recorded;
  if (payment.amountMinor !== amountMinor || payment.receivedOn !== input.receivedOn)
    throw new PaymentReferenceConflict(input.reference);
  return recorded;
}
