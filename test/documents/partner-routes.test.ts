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
      await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-30' })
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
    const amendedText = await pdfText((await fetchDocument(t, policyNumber, afterAmendment[1]!.documentId)).rawPayload);
    expect(amendedText).toContain('2026-12-30');

    const cancel = (await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' })).json<ChangeAnswer>();
    const cancelled = await confirm(t, policyNumber, 'cancellations', cancel.id!, { key: 'doc-cancel-1' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const all = await documentsOf(t, policyNumber);
    expect(all.map((d) => [d.sequenceNumber, d.kind])).toEqual([
      [1, 'CERTIFICATE'],
      [2, 'CERTIFICATE'],
      [3, 'CANCELLATION_NOTICE'],
    ]);
    const notice = await pdfText((await fetchDocument(t, policyNumber, all[2]!.documentId)).rawPayload);
    expect(notice).toContain('Cancellation notice');
    expect(notice).toContain('Refund');

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

  it('nomad: one certificate per brand language, the es one in Spanish', async () => {
    const t = getApp();
    const { policyNumber } = await boughtPolicy(t, {
      brand: 'nomad',
      input: { homeAddress: { countryCode: 'ESP', addressLine1: 'Calle Mayor 1', postalCode: '28013' } },
    });
    const docs = await documentsOf(t, policyNumber, 'nomad');
    expect(docs.map((d) => d.language)).toEqual(['en', 'es']);
    const es = await fetchDocument(t, policyNumber, docs[1]!.documentId, { brand: 'nomad' });
    const text = await pdfText(es.rawPayload);
    expect(text).toContain('Certificado de seguro');
    expect(text).toContain(policyNumber);
  });
});
