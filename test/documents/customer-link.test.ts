import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { boughtPolicy, NOW } from '../policy-changes/support.js';
import { isPdf, pdfText } from './pdf-text.js';
import { accessValueOf, documentsOf } from './support.js';

let now = NOW;
const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => now });

const LINK_HEADERS = {
  'content-security-policy': expect.stringContaining("default-src 'none'") as unknown,
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
  'cache-control': 'no-store',
};

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

    const pdf = await t.app.inject({ method: 'GET', url: `/documents/v1/${value}/${doc!.documentId}` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers).toMatchObject(LINK_HEADERS);
    expect(isPdf(pdf.rawPayload)).toBe(true);
    expect(await pdfText(pdf.rawPayload)).toContain(policyNumber);
  });

  it("a wrong, malformed, expired value or another policy's document: the same plain 404 page", async () => {
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
    // Cover ends 2026-12-23 (Sydney); the link opens 90 days more.
    now = new Date('2027-03-23T12:00:00Z');
    expect((await t.app.inject({ method: 'GET', url: `/documents/v1/${value}` })).statusCode).toBe(200);
    now = new Date('2027-03-24T12:00:00Z');
    answers.push(await t.app.inject({ method: 'GET', url: `/documents/v1/${value}` }));
    answers.push(await t.app.inject({ method: 'GET', url: `/documents/v1/${value}/${doc!.documentId}` }));
    now = NOW;

    const [first] = answers;
    expect(first!.body).toContain('Not found');
    expect(first!.body).not.toContain(policyNumber);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(404);
      expect(answer.headers).toMatchObject({ ...LINK_HEADERS, 'content-type': 'text/html; charset=utf-8' });
      expect(answer.rawPayload.equals(first!.rawPayload)).toBe(true);
    }
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
