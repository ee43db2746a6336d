import { beforeAll, describe, expect, it } from 'vitest';
import { validateCatalogue } from '../../src/catalogue/compile.js';
import type { BrandCatalogue } from '../../src/catalogue/model.js';
import { snapshotOf, type CatalogueSnapshot } from '../../src/catalogue/reader.js';
import { documentNamesOf } from '../../src/documents/brand-facts.js';
import { documentFileName, renderPolicyDocument, type CertificateFacts } from '../../src/documents/certificate.js';
import type { DocumentLanguage } from '../../src/documents/labels.js';
import type { DetailRecord, PolicyRecord } from '../../src/policies/model.js';
import { detailOf, NOMAD_EN, NOMAD_ES, policyOf } from './fixtures.js';
import { isPdf, pdfText } from './pdf-text.js';

const squash = (text: string) => text.replace(/\s+/g, ' ');
const occurrences = (text: string, part: string) => text.split(part).length - 1;

// The repository's catalogue, compiled as an import would: the names come from its translations.
let snapshot: CatalogueSnapshot;
let nomad: BrandCatalogue;
beforeAll(async () => {
  const { catalogue, problems } = await validateCatalogue('catalogue');
  expect(problems).toEqual([]);
  snapshot = snapshotOf(catalogue!, 1, '2026-11-01T00:00:00.000Z');
  nomad = snapshot.brands.get('nomad')!;
});

/** The facts of one transaction of `policy`, names from the catalogue (documents/document-facts.ts builds the same). */
function factsOf(
  policy: PolicyRecord,
  detail: DetailRecord,
  language: DocumentLanguage = 'en',
  more: Partial<CertificateFacts> = {},
): CertificateFacts {
  const destinationCodes = more.destinationCodes ?? policy.destinations.codes;
  const named = [...destinationCodes, ...(more.previousDestinationCodes ?? [])];
  return {
    policy,
    detail,
    brand: language === 'es' ? NOMAD_ES : NOMAD_EN,
    language,
    pdsReference: 'Policy Wording 2026 (nomad-wording-2026-en.pdf)',
    names: documentNamesOf(snapshot, nomad, policy, detail, named, language),
    destinationCodes,
    customerLinkUrl: 'https://api.example/documents/v1/x',
    ...more,
  };
}

const textOf = async (facts: CertificateFacts) => squash(await pdfText(await renderPolicyDocument(facts)));

describe('certificate of insurance (pure render)', () => {
  const policy = policyOf();
  const purchase = policy.details[0]!;

  it('shows the policy number, each traveller and dependent, the amounts and the contacts', async () => {
    const bytes = await renderPolicyDocument(factsOf(policy, purchase));
    expect(isPdf(bytes)).toBe(true);
    const text = squash(await pdfText(bytes));
    for (const expected of [
      'Certificate of insurance',
      'NMD-2026-000123',
      'NMD-2026-000123-1 (sequence 1)',
      'Plan: Comprehensive (COMP)',
      'Ada Lovelace',
      'Charles Babbage',
      'Byron King',
      'Destinations: Japan, South Korea',
      'Country of residence: United States',
      '2026-12-01 to 2026-12-21',
      'Snow sports Add-ons are subject to the limits and exclusions of your policy wording.',
      'Camera (SN-1): $1,200.00 USD',
      'Excess: $100.00 USD',
      'Premium: $250.00 USD',
      'Discount: -$25.00 USD',
      'Sales tax: $11.25 USD',
      'Amount paid: $236.25 USD',
      'Total paid to date: $236.25 USD',
      'nomad-wording-2026-en.pdf',
      // Issued in the policy's zone: 10:00 UTC is 05:00 in New York.
      '2026-11-21 05:00 (America/New_York)',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('SNOWSPORTS');
  });

  it('labels each contact once: emergency phone, claims, and the customer link as "your policy online"', async () => {
    const text = await textOf(factsOf(policy, purchase));
    expect(text).toContain('Emergency assistance: +44 20 3000 4000 (24/7)');
    expect(text).toContain('Claims: https://claims.nomad.example');
    expect(text).toContain('Your policy online: https://api.example/documents/v1/x');
    for (const once of [
      '+44 20 3000 4000',
      'Emergency assistance',
      'https://claims.nomad.example',
      'Your policy online',
    ])
      expect(occurrences(text, once), once).toBe(1);
    // RSPORTALURL is a claims portal for some brands: never under "your policy online".
    expect(text).not.toContain('https://my.nomad.example');
  });

  it('renders a name with a C1 control character (accepted by the API) instead of failing', async () => {
    const [first, ...others] = purchase.travellers;
    const detail = { ...purchase, travellers: [{ ...first!, firstName: 'Ad\u0085a' }, ...others] };
    const text = await textOf(factsOf({ ...policy, details: [detail] }, detail));
    // A control character is no letter: nothing is drawn for it (never a '?').
    expect(text).toContain('Ada Lovelace');
  });

  it('renders the same bytes for the same facts', async () => {
    const facts = factsOf(policy, purchase);
    const [a, b] = await Promise.all([renderPolicyDocument(facts), renderPolicyDocument(facts)]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('in Spanish: labels, and the plan, option, destination and country names of the catalogue', async () => {
    const text = await textOf(factsOf(policy, purchase, 'es'));
    expect(text).toContain('Certificado de seguro');
    expect(text).toContain('Número de póliza: NMD-2026-000123');
    expect(text).toContain('Viajeros');
    expect(text).toContain('Plan: Integral (COMP)');
    expect(text).toContain('Deportes de nieve');
    expect(text).toContain('Destinos: Japón, Corea del Sur');
    expect(text).toContain('País de residencia: Estados Unidos');
    expect(text).toContain('Asistencia de emergencia: +44 20 3000 4000 (24 horas, todos los días)');
    expect(text).toContain('Importe pagado: 236,25 $ USD');
    for (const english of ['Japan', 'South Korea', 'Comprehensive', 'Snow sports', 'United States'])
      expect(text).not.toContain(english);
  });

  describe('a cancellation notice', () => {
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

    it('shows its effective date, that cover has ended, and the refund as positive amounts with their words', async () => {
      // Issued 2026-11-22 10:00 UTC, 05:00 in New York: effective that day, the cover has ended.
      const text = await textOf(factsOf(cancelled, cancellation, 'en', { cancellationEffectiveDate: '2026-11-22' }));
      expect(text).toContain('Cancellation notice');
      expect(text).toContain('This policy is cancelled.');
      expect(text).toContain('Cancelled with effect from: 2026-11-22 (America/New_York)');
      expect(text).toContain('Cover has ended');
      expect(text).toContain('Premium refunded: $250.00 USD');
      expect(text).toContain('Discount deducted: $25.00 USD');
      expect(text).toContain('Sales tax refunded: $11.25 USD');
      expect(text).toContain('Cancellation fee deducted: $20.00 USD');
      expect(text).toContain('Amount refunded: $216.25 USD');
      expect(text).toContain('Total paid to date: $20.00 USD');
      expect(text).not.toContain('-$');
      expect(documentFileName('NMD/1', 2, 'CANCELLATION_NOTICE', 'es')).toBe('cancellation-notice-NMD_1-2-es.pdf');
    });

    it('in Spanish, and for an effective date still ahead: cover ends when it begins', async () => {
      const text = await textOf(factsOf(cancelled, cancellation, 'es', { cancellationEffectiveDate: '2026-12-01' }));
      expect(text).toContain('Aviso de cancelación');
      expect(text).toContain('Cancelada con efecto desde: 2026-12-01 (America/New_York)');
      expect(text).toContain('La cobertura termina al comenzar esa fecha');
      expect(text).toContain('Cargo por cancelación (deducción): 20,00 $ USD');
      expect(text).toContain('Importe reembolsado: 216,25 $ USD');
      expect(text).not.toContain('-$');
    });
  });

  describe('an amendment certificate', () => {
    const amendment = detailOf(2, {
      actionType: 'Amendment',
      coverEndDate: '2026-12-30',
      travellers: [
        detailOf(1).travellers[0]!,
        { ...detailOf(1).travellers[1]!, firstName: 'Grace', surname: 'Hopper' },
      ],
      options: [...detailOf(1).options, { id: 2, planId: 400112, optionTypeId: 4001, name: 'CRUISE', displayOrder: 2 }],
      financials: [
        { transactionTypeId: 1, amountMinor: 4_000 },
        { transactionTypeId: 3, name: 'Sales tax', amountMinor: 200 },
        { transactionTypeId: 5, name: 'Amendment fee', amountMinor: 1_000 },
      ],
    });
    const amended = policyOf([detailOf(1), amendment]);
    const moved = { destinationCodes: ['JPN', 'THA'], previousDestinationCodes: ['JPN', 'KOR'] };

    it('lists what changed against the transaction before it, and the additional premium paid', async () => {
      const text = await textOf(factsOf(amended, amendment, 'en', moved));
      expect(text).toContain('Certificate of insurance');
      expect(text).toContain('Changes in this amendment');
      expect(text).toContain('Cover period: now 2026-12-01 to 2026-12-30 (was 2026-12-01 to 2026-12-21)');
      expect(text).toContain('Destinations added: Thailand');
      expect(text).toContain('Destinations removed: South Korea');
      expect(text).toContain('Travellers added: Grace Hopper');
      expect(text).toContain('Travellers removed: Charles Babbage');
      expect(text).toContain('Options added: Cruise cover');
      expect(text).not.toContain('Options removed');
      expect(text).not.toContain('Dependents added');
      expect(text).toContain('Destinations: Japan, Thailand');
      expect(text).toContain('Amendment fee: $10.00 USD');
      expect(text).toContain('Additional premium paid: $52.00 USD');
      expect(text).toContain('Total paid to date: $288.25 USD');
    });

    it('in Spanish, with the catalogue names', async () => {
      const text = await textOf(factsOf(amended, amendment, 'es', moved));
      expect(text).toContain('Cambios en esta modificación');
      expect(text).toContain('Destinos añadidos: Tailandia');
      expect(text).toContain('Destinos eliminados: Corea del Sur');
      expect(text).toContain('Coberturas adicionales añadidas: Cobertura de cruceros');
      expect(text).toContain('Cargo por modificación: 10,00 $ USD');
      expect(text).toContain('Prima adicional pagada: 52,00 $ USD');
    });

    it('that refunds says refunded; one that changed nothing on the cover says so', async () => {
      const refunding = { ...detailOf(2), actionType: 'Amendment' as const };
      const cheaper: DetailRecord = {
        ...refunding,
        financials: [
          { transactionTypeId: 1, amountMinor: -3_000 },
          { transactionTypeId: 3, name: 'Sales tax', amountMinor: -150 },
        ],
      };
      const text = await textOf(factsOf(policyOf([detailOf(1), cheaper]), cheaper));
      expect(text).toContain('No change to the dates, destinations, travellers or options.');
      expect(text).toContain('Premium refunded: $30.00 USD');
      expect(text).toContain('Amount refunded: $31.50 USD');
      expect(text).not.toContain('Additional premium paid');
      expect(text).not.toContain('-$');
    });
  });
});
