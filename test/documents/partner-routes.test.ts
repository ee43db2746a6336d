import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import {
  boughtPolicy,
  CARDS,
  confirm,
  NOW,
  previewAmendment,
  previewCancellation,
  type ChangeAnswer,
} from '../policy-changes/support.js';
import { isPdf, pdfText } from './pdf-text.js';
import { documentsOf, fetchDocument, listDocuments } from './support.js';

const squash = (text: string) => text.replace(/\s+/g, ' ');

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

describe(`policy documents for the partner (${DIALECT})`, () => {
  it('a certificate per transaction, a cancellation notice at the end, each the same bytes forever', async () => {
    const t = getApp();
    const { policyNumber, input } = await boughtPolicy(t);

    const first = await listDocuments(t, policyNumber);
    expect(first.statusCode, first.body).toBe(200);
    const [certificate, ...others] = first.json<{ documents: Awaited<ReturnType<typeof documentsOf>> }>().documents;
    expect(others).toEqual([]);
    expect(certificate).toMatchObject({ kind: 'CERTIFICATE', sequenceNumber: 1, language: 'en' });
    expect(certificate!.fileName).toBe(`certificate-${policyNumber}-1-en.pdf`);

    const pdf = await fetchDocument(t, policyNumber, certificate!.documentId);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="${certificate!.fileName}"`);
    expect(pdf.headers['cache-control']).toContain('private');
    expect(pdf.rawPayload.length).toBe(certificate!.sizeBytes);
    expect(isPdf(pdf.rawPayload)).toBe(true);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain(policyNumber);
    for (const holder of input.policyHolders) expect(text).toContain(holder.firstName);

    const amendment = (
      await previewAmendment(t, policyNumber, {
        ...input,
        returnDate: '2026-12-30',
        destinationCountryCodes: ['IDN', 'THA'],
      })
    ).json<ChangeAnswer>();
    const amended = await confirm(t, policyNumber, 'amendments', amendment.id!, {
      key: 'doc-amend-1',
      body: { cardToken: { token: CARDS.approved } },
    });
    expect(amended.statusCode, amended.body).toBe(200);
    const afterAmendment = await documentsOf(t, policyNumber);
    expect(afterAmendment.map((d) => [d.sequenceNumber, d.kind])).toEqual([
      [1, 'CERTIFICATE'],
      [2, 'CERTIFICATE'],
    ]);
    expect(afterAmendment[0]).toEqual(certificate);
    const amendedText = squash(
      await pdfText((await fetchDocument(t, policyNumber, afterAmendment[1]!.documentId)).rawPayload),
    );
    expect(amendedText).toContain('Changes in this amendment');
    expect(amendedText).toContain('Cover period: now 2026-12-10 to 2026-12-30 (was 2026-12-10 to 2026-12-23)');
    expect(amendedText).toContain('Destinations added: Thailand');
    expect(amendedText).toContain('Destinations: Indonesia, Thailand');
    expect(amendedText).toMatch(/Additional premium paid: \$\d/);

    const cancel = (await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' })).json<ChangeAnswer>();
    const cancelled = await confirm(t, policyNumber, 'cancellations', cancel.id!, { key: 'doc-cancel-1' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const all = await documentsOf(t, policyNumber);
    expect(all.map((d) => [d.sequenceNumber, d.kind])).toEqual([
      [1, 'CERTIFICATE'],
      [2, 'CERTIFICATE'],
      [3, 'CANCELLATION_NOTICE'],
    ]);
    const notice = squash(await pdfText((await fetchDocument(t, policyNumber, all[2]!.documentId)).rawPayload));
    expect(notice).toContain('Cancellation notice');
    // Cancelled today in the policy's zone (NOW is 11:00 in Sydney): cover has ended, the refund is positive.
    expect(notice).toContain('Cancelled with effect from: 2026-11-22 (Australia/Sydney)');
    expect(notice).toContain('Cover has ended');
    expect(notice).toMatch(/Amount refunded: \$\d/);
    expect(notice).not.toContain('-$');

    const again = await fetchDocument(t, policyNumber, certificate!.documentId);
    expect(Buffer.compare(again.rawPayload, pdf.rawPayload)).toBe(0);
  });

  it("another partner, another brand, or another policy's document id: 404", async () => {
    const t = getApp();
    const { policyNumber } = await boughtPolicy(t);
    const [doc] = await documentsOf(t, policyNumber);

    const otherPartner = await listDocuments(t, policyNumber, { partner: 'B' });
    expect(otherPartner.statusCode).toBe(404);
    expect(otherPartner.json<{ validation: { errors: { code: string }[] } }>().validation.errors[0]!.code).toBe(
      'POLICY_NOT_FOUND',
    );
    expect((await fetchDocument(t, policyNumber, doc!.documentId, { partner: 'B' })).statusCode).toBe(404);
    expect((await listDocuments(t, policyNumber, { brand: 'brandnz' })).statusCode).toBe(404);

    const { policyNumber: second } = await boughtPolicy(t);
    const crossed = await fetchDocument(t, second, doc!.documentId);
    expect(crossed.statusCode).toBe(404);
    expect(crossed.json<{ validation: { errors: { code: string }[] } }>().validation.errors[0]!.code).toBe(
      'DOCUMENT_NOT_FOUND',
    );
  });

  it('nomad: one certificate per brand language, the es one in Spanish with the catalogue names', async () => {
    const t = getApp();
    const { policyNumber, input } = await boughtPolicy(t, {
      brand: 'nomad',
      input: {
        homeAddress: { countryCode: 'ESP', addressLine1: 'Calle Mayor 1', postalCode: '28013' },
        destinationCountryCodes: ['JPN'],
      },
    });
    // Amended before any document is read: the purchase's certificate, rendered after, still shows its own trip.
    const amendment = (
      await previewAmendment(t, policyNumber, { ...input, destinationCountryCodes: ['JPN', 'KOR'] }, 'nomad')
    ).json<ChangeAnswer>();
    const amended = await confirm(t, policyNumber, 'amendments', amendment.id!, {
      key: 'doc-amend-nomad',
      brand: 'nomad',
      body: { cardToken: { token: CARDS.approved } },
    });
    expect(amended.statusCode, amended.body).toBe(200);
    const docs = await documentsOf(t, policyNumber, 'nomad');
    expect(docs.map((d) => [d.sequenceNumber, d.language])).toEqual([
      [1, 'en'],
      [1, 'es'],
      [2, 'en'],
      [2, 'es'],
    ]);
    const textOf = async (i: number) =>
      squash(await pdfText((await fetchDocument(t, policyNumber, docs[i]!.documentId, { brand: 'nomad' })).rawPayload));
    const purchaseEs = await textOf(1);
    expect(purchaseEs).toContain('Certificado de seguro');
    expect(purchaseEs).toContain(policyNumber);
    expect(purchaseEs).toContain('Plan: Integral (COMP)');
    expect(purchaseEs).toContain('Destinos: Japón');
    expect(purchaseEs).toContain('País de residencia: España');
    for (const english of ['Japan', 'Comprehensive', 'Corea del Sur']) expect(purchaseEs).not.toContain(english);
    const amendmentEs = await textOf(3);
    expect(amendmentEs).toContain('Destinos añadidos: Corea del Sur');
    expect(amendmentEs).toContain('Destinos: Japón, Corea del Sur');
    expect(await textOf(2)).toContain('Destinations added: South Korea');
  });
});
