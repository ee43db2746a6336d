import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { baliTrip } from '../quotes/fixtures.js';
import { asPartner } from '../quotes/partners.js';
import { call } from './support.js';

/** A brandau quote for Bali with `adult-1` opted in for screening; its id. */
export async function screenableQuote(t: TestApp, planId = 101): Promise<string> {
  const input = baliTrip();
  input.planId = planId;
  input.policyHolders[0]!.travelClearOption = { optionType: 'TRAVELCLEAR', isOptedInForScreening: true };
  const res = await t.app.inject({
    method: 'POST',
    url: '/quotes/v2/brandau/quote',
    headers: await asPartner(t, 'brandau'),
    payload: { input },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ id: string }>().id;
}

export const RETURN_URL = 'https://shop.partner.example/screened?basket=7';

/** Makes `adult-1`'s link; the page's path (the app has no base path in tests). */
export async function linkOf(
  t: TestApp,
  quoteId: string,
  body: object = { returnUrl: RETURN_URL },
  partner: 'A' | 'B' = 'A',
) {
  return call(t, quoteId, 'POST', '/link', body, partner);
}

export const pathOf = (url: string) => new URL(url).pathname;

/** The CSRF token of the form on an HTML page. */
export function tokenIn(page: string): string {
  const token = /name="csrf" value="([^"]+)"/.exec(page)?.[1];
  if (!token) throw new Error('no form token on the page');
  return token;
}

/** Posts a page form as a browser would (urlencoded; repeated fields for several ticked boxes). */
export function postForm(t: TestApp, path: string, fields: readonly (readonly [string, string])[]) {
  return t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields.map(([k, v]): [string, string] => [k, v])).toString(),
  });
}

export const PERSON_FIELDS = [
  ['who', 'OTHER'],
  ['firstName', 'Alex'],
  ['surname', 'Canary'],
  ['dateOfBirth', '1984-01-02'],
  ['email', 'alex@example.com'],
  ['phone', '+61 400 000 000'],
] as const;
