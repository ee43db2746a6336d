import { amountFormat } from '../kernel/money/currency.js';
import { instantIn } from '../kernel/calendar/zones.js';
import type { PolicyRecord } from '../policies/model.js';

/** An instant as the policy's people read it: `2026-12-08 14:15` and the zone. */
export function localTime(at: string, zone: string): string {
  const local = instantIn(at, zone).localDateTime;
  return `${local.slice(0, 10)} ${local.slice(11, 16)} ${zone}`;
}

/** Minor units of the policy's currency as text, e.g. `$46.75`, `-$12.00`. */
export function moneyText(policy: PolicyRecord, minor: number): string {
  const digits = policy.currency.minorUnits;
  const text = `${policy.currency.symbol}${amountFormat(digits).format(Math.abs(minor) / 10 ** digits)}`;
  return minor < 0 ? `-${text}` : text;
}
