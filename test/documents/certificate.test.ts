import { describe, expect, it } from 'vitest';
import { documentFileName, renderPolicyDocument } from '../../src/documents/certificate.js';
import { detailOf, NOMAD_EN, NOMAD_ES, policyOf } from './fixtures.js';
import { isPdf, pdfText } from './pdf-text.js';

const squash = (text: string) => text.replace(/\s+/g, ' ');

describe('certificate of insurance (pure render)', () => {
  const policy = policyOf();
  const facts = {
    policy,
    detail: policy.details[0]!,
    brand: NOMAD_EN,
    language: 'en' as const,
    pdsReference: 'Policy Wording 2026 (nomad-wording-2026-en.pdf)',
  };

  it('shows the policy number, each traveller and dependent, the amounts and the contacts', async () => {
    const bytes = await renderPolicyDocument(facts);
    expect(isPdf(bytes)).toBe(true);
    const text = squash(await pdfText(bytes));
    for (const expected of [
      'Certificate of insurance',
      'NMD-2026-000123',
      'NMD-2026-000123-1 (sequence 1)',
      'Ada Lovelace',
      'Charles Babbage',
      'Byron King',
      'Japan, South Korea',
      '2026-12-01 to 2026-12-21',
      'Ski and snow',
      'Camera (SN-1): $1,200.00 USD',
      'Excess: $100.00 USD',
      'Premium: $250.00 USD',
      'Discount: -$25.00 USD',
      'Sales tax: $11.25 USD',
      'Total of this transaction: $236.25 USD',
      'Total paid to date: $236.25 USD',
      '+44 20 3000 4000',
      'nomad-wording-2026-en.pdf',
      // Issued in the policy's zone: 10:00 UTC is 05:00 in New York.
      '2026-11-21 05:00 (America/New_York)',
    ])
      expect(text).toContain(expected);
  });

  it('renders a name with a C1 control character (accepted by the API) instead of failing', async () => {
    const [first, ...others] = policy.details[0]!.travellers;
    const detail = { ...policy.details[0]!, travellers: [{ ...first!, firstName: 'Ad\u0085a' }, ...others] };
    const bytes = await renderPolicyDocument({ ...facts, policy: { ...policy, details: [detail] }, detail });
    // A control character is no letter: nothing is drawn for it (never a '?').
    expect(squash(await pdfText(bytes))).toContain('Ada Lovelace');
  });

  it('renders the same bytes for the same facts', async () => {
    const [a, b] = await Promise.all([renderPolicyDocument(facts), renderPolicyDocument(facts)]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('labels in Spanish for es', async () => {
    const text = squash(await pdfText(await renderPolicyDocument({ ...facts, brand: NOMAD_ES, language: 'es' })));
    expect(text).toContain('Certificado de seguro');
    expect(text).toContain('Número de póliza: NMD-2026-000123');
    expect(text).toContain('Viajeros');
    expect(text).toContain('Asistencia de emergencia 24/7');
  });

  it('a cancellation is a cancellation notice with the refund and the total paid to date', async () => {
    const cancellation = detailOf(2, {
      actionType: 'Cancellation',
      financials: [
        { transactionTypeId: 1, amountMinor: -25_000 },
        { transactionTypeId: 2, amountMinor: -2_500 },
        { transactionTypeId: 3, name: 'Sales tax', amountMinor: -1_125 },
        { transactionTypeId: 5, name: 'Cancellation fee', amountMinor: 2_000 },
      ],
    });
    const cancelled = policyOf([detailOf(1), cancellation]);
    const bytes = await renderPolicyDocument({ ...facts, policy: cancelled, detail: cancellation });
    const text = squash(await pdfText(bytes));
    expect(text).toContain('Cancellation notice');
    expect(text).toContain('Cancellation fee: $20.00 USD');
    expect(text).toContain('Refund: -$216.25 USD');
    expect(text).toContain('Total paid to date: $20.00 USD');
    expect(documentFileName('NMD/1', 2, 'CANCELLATION_NOTICE', 'es')).toBe('cancellation-notice-NMD_1-2-es.pdf');
  });
});
