import { demoTrip, EXAMPLE_BRAND } from './catalogue.js';
import type { DemoPartner } from './demo-partner.js';
import type { ExampleValues } from './values.js';

/**
 * The demo objects the examples name, made through the public API as a partner makes them:
 * quotes at DETAILS, policies bought with the sandbox card, previewed changes, webhook endpoints.
 */
type TripValues = Pick<ExampleValues, 'planId' | 'purchaseTerms' | 'trip'>;

const Q = `/quotes/v2/${EXAMPLE_BRAND}`;
const P = `/policies/v1/${EXAMPLE_BRAND}/policies`;

/** A quote priced and moved to DETAILS; its id. */
export async function quoteAtDetails(
  partner: DemoPartner,
  v: TripValues,
  options: { screened?: readonly string[]; destination?: string } = {},
): Promise<string> {
  const trip = demoTrip(v, options);
  const { id } = await partner.call<{ id: string }>('POST', `${Q}/quote`, { input: trip });
  await partner.call('PUT', `${Q}/quote/${id}`, { stage: 'DETAILS', input: trip });
  return id;
}

/** A policy bought with the sandbox's approving card; its number and document access value. */
export async function boughtPolicy(
  partner: DemoPartner,
  v: TripValues,
): Promise<{ policyNumber: string; documentAccessGuid: string }> {
  const quoteId = await quoteAtDetails(partner, v);
  const declarations = v.purchaseTerms.map((termConditionId) => ({ termConditionId, hasAgreed: true }));
  const bought = await partner.call<{ quote: { policyNumber: string } }>(
    'POST',
    `${Q}/purchase`,
    {
      quote: { id: quoteId, input: { regulatoryDeclarations: declarations } },
      cardToken: { token: 'tok_sandbox_approved', source: 'hosted-page' },
    },
    { 'idempotency-key': `docs-example-${quoteId}` },
  );
  const policyNumber = bought.quote.policyNumber;
  const summary = await partner.call<{ policyDocumentAccessGuid: string }>('GET', `${P}/${policyNumber}`);
  return { policyNumber, documentAccessGuid: summary.policyDocumentAccessGuid };
}

export const previewAmendment = async (partner: DemoPartner, v: TripValues, policyNumber: string) =>
  (
    await partner.call<{ id: string }>('POST', `${P}/${policyNumber}/amendments`, {
      input: demoTrip(v, { returnDate: v.trip.laterReturnDate }),
    })
  ).id;

export const previewCancellation = async (partner: DemoPartner, policyNumber: string) =>
  (await partner.call<{ id: string }>('POST', `${P}/${policyNumber}/cancellations`, { reasonCode: 'TRIP_CANCELLED' }))
    .id;

/** A change still confirmable for a few minutes (a reader has time to press Execute). */
export async function isConfirmable(partner: DemoPartner, url: string, now: Date): Promise<boolean> {
  const answer = await partner.read(url);
  if (answer.status !== 200) return false;
  const change = answer.json<{ status?: string; expiresAt?: string }>();
  return change.status === 'PREVIEW' && Date.parse(change.expiresAt ?? '') > now.getTime() + 5 * 60_000;
}
