import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { boughtPolicy, confirm, NOW, previewCancellation, type ChangeAnswer } from '../policy-changes/support.js';
import { isPdf, pdfText } from './pdf-text.js';
import { accessValueOf, documentsOf } from './support.js';

let now = NOW;
/** A trip Nomad Global sells: from California (a state it insures) to Mexico. */
const NOMAD_TRIP = {
  homeAddress: { countryCode: 'USA', provinceCode: 'CA', addressLine1: '1 Main St', postalCode: '94103' },
  destinationCountryCodes: ['MEX'],
};
const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => now });

const LINK_HEADERS = {
  'content-security-policy': expect.stringMatching(
    /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]{43}='; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/,
  ) as unknown,
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
  'cache-control': 'no-store',
};

/** The page's text as a reader meets it: tags dropped, white space collapsed. */
const visibleText = (body: string) =>
  body
    .replace(/<style>.*?<\/style>/s, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/ ([,.:])/g, '$1');

/** The value with its first character changed: always a different value of the same shape. */
function tampered(value: string): string {
  return (value.startsWith('A') ? 'B' : 'A') + value.slice(1);
}

describe(`the customer's document link (${DIALECT})`, () => {
  it('issues a 256-bit value; the page lists the documents and its links download them', async () => {
    const t = getApp();
    const { policyNumber } = await boughtPolicy(t);
    const value = await accessValueOf(t, policyNumber);
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const page = await t.app.inject({ method: 'GET', url: `/documents/v1/${value}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers).toMatchObject(LINK_HEADERS);
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toContain(policyNumber);
    const [doc] = await documentsOf(t, policyNumber);
    expect(page.body).toContain(`href="${value}/${doc!.documentId}"`);
    expect(page.body).toContain(doc!.fileName);
    // The brand, the policy's facts and status, its documents by transaction, whom to call.
    const text = visibleText(page.body);
    expect(page.body).toContain('<span class="brand">Brand Australia Travel Insurance</span>');
    expect(page.body).toContain('src="data:image/svg+xml;base64,');
    expect(page.body).toContain('--brand:#00695c');
    expect(text).toContain('Status Active');
    expect(text).toContain('Travellers Ada Lovelace Charles Babbage Byron Lovelace');
    expect(text).toContain('Trip dates Dec 10, 2026 – Dec 23, 2026');
    expect(text).toContain('Destinations Indonesia');
    expect(text).toContain('Cover Nov 22, 2026 – Dec 23, 2026');
    expect(text).toContain('Transaction 1: purchase, Nov 22, 2026 Certificate of insurance (English)');
    expect(page.body).toContain('<a href="tel:+61280001000">+61 2 8000 1000</a>');
    expect(page.body).toContain('href="mailto:travel@brandau.example"');
    expect(page.body).not.toContain('<script');

    const pdf = await t.app.inject({ method: 'GET', url: `/documents/v1/${value}/${doc!.documentId}` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers).toMatchObject({
      ...LINK_HEADERS,
      // A PDF carries no style: its policy allows nothing at all.
      'content-security-policy': "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    });
    expect(isPdf(pdf.rawPayload)).toBe(true);
    expect(await pdfText(pdf.rawPayload)).toContain(policyNumber);
  });

  it("a wrong or malformed value, or another policy's document: one 404 page that names no brand", async () => {
    const t = getApp();
    const { policyNumber } = await boughtPolicy(t);
    const value = await accessValueOf(t, policyNumber);
    const [doc] = await documentsOf(t, policyNumber);
    const { policyNumber: other } = await boughtPolicy(t);
    const [otherDoc] = await documentsOf(t, other);

    const answers = [
      await t.app.inject({ method: 'GET', url: `/documents/v1/${tampered(value)}` }),
      await t.app.inject({ method: 'GET', url: '/documents/v1/not-a-value' }),
      await t.app.inject({ method: 'GET', url: `/documents/v1/${'x'.repeat(90)}` }),
      await t.app.inject({ method: 'GET', url: `/documents/v1/${value}/${otherDoc!.documentId}` }),
      await t.app.inject({ method: 'GET', url: `/documents/v1/${tampered(value)}/${doc!.documentId}` }),
    ];
    const [first] = answers;
    expect(first!.body).toContain('Not found');
    expect(first!.body).not.toContain(policyNumber);
    expect(first!.body).not.toContain('Brand Australia');
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.headers).toMatchObject({ ...LINK_HEADERS, 'content-type': 'text/html; charset=utf-8' });
      expect(answer.rawPayload.equals(first!.rawPayload)).toBe(true);
    }
  });

  // Decided (docs/api-contract.md, "The customer's link"): a value past its time was real, so its
  // page may say the link expired and give the brand's contacts; it shows nothing of the policy.
  it("an expired value: 410 with the brand's page and contacts, nothing of the policy", async () => {
    const t = getApp();
    const { policyNumber } = await boughtPolicy(t);
    const value = await accessValueOf(t, policyNumber);
    const [doc] = await documentsOf(t, policyNumber);
    try {
      // Cover ends 2026-12-23 (Sydney); the link opens 90 days more.
      now = new Date('2027-03-23T12:00:00Z');
      expect((await t.app.inject({ method: 'GET', url: `/documents/v1/${value}` })).statusCode).toBe(200);
      now = new Date('2027-03-24T12:00:00Z');
      const page = await t.app.inject({ method: 'GET', url: `/documents/v1/${value}` });
      const file = await t.app.inject({ method: 'GET', url: `/documents/v1/${value}/${doc!.documentId}` });
      for (const answer of [page, file]) {
        expect(answer.statusCode).toBe(410);
        expect(answer.headers).toMatchObject({ ...LINK_HEADERS, 'content-type': 'text/html; charset=utf-8' });
        expect(answer.rawPayload.equals(page.rawPayload)).toBe(true);
      }
      expect(page.body).toContain('This link has expired');
      expect(page.body).toContain('<span class="brand">Brand Australia Travel Insurance</span>');
      expect(page.body).toContain('href="mailto:travel@brandau.example"');
      for (const secret of [policyNumber, 'Lovelace', doc!.documentId]) expect(page.body).not.toContain(secret);
    } finally {
      now = NOW;
    }
  });

  it('a cancelled policy says so; every transaction has its documents', async () => {
    const t = getApp();
    const { policyNumber } = await boughtPolicy(t);
    const cancel = (await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' })).json<ChangeAnswer>();
    expect((await confirm(t, policyNumber, 'cancellations', cancel.id!, { key: 'link-cancel' })).statusCode).toBe(200);
    const value = await accessValueOf(t, policyNumber);
    const page = await t.app.inject({ method: 'GET', url: `/documents/v1/${value}` });
    expect(page.statusCode).toBe(200);
    const text = visibleText(page.body);
    expect(text).toContain('Status Cancelled');
    expect(text).not.toContain('Status Active');
    expect(text).toContain('This policy has been cancelled. Its last day of cover was Dec 23, 2026.');
    expect(text).toContain('Transaction 2: cancellation, Nov 22, 2026 Cancellation notice (English)');
    expect(text).not.toContain('Emergency assistance');
    for (const doc of await documentsOf(t, policyNumber)) expect(page.body).toContain(`${value}/${doc.documentId}"`);
  });

  it("a brand's page in each language it offers (?lang=), its default when asked for another", async () => {
    const t = getApp();
    const { policyNumber } = await boughtPolicy(t, { brand: 'nomad', input: NOMAD_TRIP });
    const value = await accessValueOf(t, policyNumber, 'nomad');
    const english = await t.app.inject({ method: 'GET', url: `/documents/v1/${value}` });
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toContain('<a href="?lang=es" hreflang="es" lang="es">Español</a>');
    const spanish = await t.app.inject({ method: 'GET', url: `/documents/v1/${value}?lang=es` });
    expect(spanish.statusCode).toBe(200);
    expect(spanish.body).toContain('<html lang="es">');
    const text = visibleText(spanish.body);
    expect(text).toContain('Los documentos de su póliza');
    expect(text).toContain('Estado Vigente');
    // Plan and destination in the catalogue's Spanish names, as the Spanish certificate prints them.
    expect(text).toContain('México');
    expect(text).not.toContain('Mexico');
    expect(visibleText(english.body)).toContain('Mexico');
    // The page's language first, then the brand's other.
    expect(text).toMatch(/Transacción 1: compra, 21 nov 2026 Certificado de seguro \(Español\).*\(English\)/);
    const unknown = await t.app.inject({ method: 'GET', url: `/documents/v1/${value}?lang=fr` });
    expect(unknown.body).toEqual(english.body);
  });
});

describe(`the customer's document link is rate-limited per address (${DIALECT})`, () => {
  const limited = useTestApp({
    env: { DEMO_DATA: 'true', RATE_LIMITS: 'true', RATE_LIMIT_DOCUMENT_LINK_PER_ADDRESS: '3' },
    clock: () => NOW,
  });

  it('past the budget: 429 with Retry-After, whatever value is tried; another address still served', async () => {
    const t = limited();
    const tries = [];
    for (let i = 0; i < 4; i += 1)
      tries.push(await t.app.inject({ method: 'GET', url: `/documents/v1/guess-number-${i}-xxxxxxxxxxxxxxxx` }));
    expect(tries.map((r) => r.statusCode)).toEqual([404, 404, 404, 429]);
    expect(tries[3]!.headers['retry-after']).toMatch(/^\d+$/);
    expect(tries[3]!.headers['referrer-policy']).toBe('no-referrer');
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: '/documents/v1/guess-xxxxxxxxxxxxxxxxxxxxxx',
      remoteAddress: '10.9.8.7',
    });
    expect(elsewhere.statusCode).toBe(404);
  });
});
