import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { pdfText } from '../documents/pdf-text.js';
import { detailedTrip, planOf } from '../purchases/support.js';

/** A quote answer as the screening walks read it. */
export interface QuoteAnswer {
  stage: string;
  validation: {
    isValid: boolean;
    errors: { code: string; property?: string }[];
    warnings?: { code: string; property?: string }[];
  };
  priceResults: {
    planId: number;
    optionPriceResults?: { optionTypeCode?: string; policyHolderGuid?: string; saleListPrice?: number }[];
  }[];
}

/**
 * A brandau quote of plan `planCode` (COMP unless said) at DETAILS whose first adult opted in for
 * screening and cover, the other adult not. `refresh` asks for MEDICAL_SCREENING with the input.
 */
export async function screenedQuote(t: TestApp, planCode = 'COMP') {
  const plan = await planOf(t, 'brandau', planCode);
  const trip = detailedTrip(plan.planId);
  // Every adult says whether they screen (the stage's rule); the first opts in for screening and cover.
  const policyHolders = trip.policyHolders.map((h, i) => ({
    ...h,
    travelClearOption: { optionType: 'TRAVELCLEAR', isOptedInForScreening: i === 0, isOptedInForCover: i === 0 },
  }));
  const input = { ...trip, policyHolders };
  const put = (id: string, input: object) =>
    bearerFor(t, 'brandau').then((headers) =>
      t.app.inject({
        method: 'PUT',
        url: `/quotes/v2/brandau/quote/${id}`,
        headers,
        payload: { stage: 'MEDICAL_SCREENING', input },
      }),
    );
  const created = await t.app.inject({
    method: 'POST',
    url: '/quotes/v2/brandau/quote',
    headers: await bearerFor(t, 'brandau'),
    payload: { input },
  });
  expect(created.statusCode).toBe(200);
  const id = created.json<{ id: string }>().id;
  const waiting = (await put(id, input)).json<QuoteAnswer>();
  return {
    id,
    trip: input,
    plan,
    /** The answer to the first request for MEDICAL_SCREENING, before any screening. */
    waiting,
    refresh: (changed: object = input) => put(id, changed).then((r) => r.json<QuoteAnswer>()),
  };
}

export const medicalLines = (quote: QuoteAnswer, planId: number) =>
  (quote.priceResults.find((p) => p.planId === planId)?.optionPriceResults ?? []).filter(
    (o) => o.optionTypeCode === 'MEDICAL',
  );

/** A sold policy's travellers as the partner reads them. */
export async function policyTravellers(t: TestApp, policyNumber: string) {
  const policy = await t.app.inject({
    method: 'GET',
    url: `/policies/v1/brandau/policies/${policyNumber}`,
    headers: await bearerFor(t, 'brandau'),
  });
  expect(policy.statusCode).toBe(200);
  return policy.json<{ travellers: { guid: string; travelClear?: Record<string, unknown> }[] }>().travellers;
}

/** The text of a policy's purchase certificate (English), downloaded through the partner routes. */
export async function certificateText(t: TestApp, policyNumber: string): Promise<string> {
  const headers = await bearerFor(t, 'brandau');
  const base = `/policies/v1/brandau/policies/${policyNumber}/documents`;
  const list = await t.app.inject({ method: 'GET', url: base, headers });
  expect(list.statusCode).toBe(200);
  const certificate = list
    .json<{ documents: { documentId: string; kind: string; sequenceNumber: number; language: string }[] }>()
    .documents.find((d) => d.kind === 'CERTIFICATE' && d.sequenceNumber === 1 && d.language === 'en');
  expect(certificate).toBeDefined();
  const pdf = await t.app.inject({ method: 'GET', url: `${base}/${certificate!.documentId}`, headers });
  expect(pdf.statusCode).toBe(200);
  return (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
}
