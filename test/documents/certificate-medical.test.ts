import { describe, expect, it } from 'vitest';
import { renderPolicyDocument, type CertificateFacts, type MedicalFacts } from '../../src/documents/certificate.js';
import type { DocumentLanguage } from '../../src/documents/labels.js';
import { MEDICAL_COVER_DIRECTORY_TEXT } from '../../src/quotes/screening-rules.js';
import { detailOf, NOMAD_EN, NOMAD_ES, policyOf } from './fixtures.js';
import { pdfText } from './pdf-text.js';

const squash = (text: string) => text.replace(/\s+/g, ' ');
const policy = policyOf();
const [ada, charles] = policy.details[0]!.travellers;

/** Ada screened (a loaded, an automatic and an excluded condition); Charles declared nothing. */
const screened = (overrides: Partial<MedicalFacts> = {}): MedicalFacts[] => [
  {
    person: ada!,
    reference: 'TC-0123456789ABCDEF',
    screeningDate: '2026-11-20',
    coverChosen: true,
    outcome: 'COVERED_WITH_EXCLUSIONS',
    conditions: [
      { name: 'Asthma', outcome: 'COVERED', medicalPremiumMinor: 6_000, excessMinor: 10_000 },
      { name: 'Hay fever', outcome: 'AUTO_COVERED', medicalPremiumMinor: 0, excessMinor: 0 },
      { name: 'Heart attack', outcome: 'EXCLUDED', medicalPremiumMinor: 0, excessMinor: 0 },
      { name: 'COPD', outcome: 'DECLINED', medicalPremiumMinor: 0, excessMinor: 0 },
    ],
    signposting: false,
    ...overrides,
  },
  {
    person: charles!,
    reference: 'TC-FEDCBA9876543210',
    screeningDate: '2026-11-21',
    coverChosen: true,
    outcome: 'NO_SCREENING_NEEDED',
    conditions: [],
    signposting: false,
  },
];

const textOf = async (medical: MedicalFacts[] | undefined, language: DocumentLanguage = 'en', on = policy) => {
  const facts: CertificateFacts = {
    policy: on,
    detail: on.details.at(-1)!,
    brand: language === 'es' ? NOMAD_ES : NOMAD_EN,
    language,
    pdsReference: 'Policy Wording 2026',
    names: { plan: 'Comprehensive', options: {}, destinations: {}, homeCountry: 'United States' },
    destinationCodes: on.destinations.codes,
    customerLinkUrl: 'https://api.example/documents/v1/x',
    ...(medical ? { medical } : {}),
  };
  return squash(await pdfText(await renderPolicyDocument(facts)));
};

describe('certificate: medical conditions (pure render)', () => {
  it("lists each screened person's reference, date, conditions and outcomes, a loading with its amounts", async () => {
    const text = await textOf(screened());
    for (const expected of [
      'Medical conditions',
      'Ada Lovelace: medical screening TC-0123456789ABCDEF of 2026-11-20',
      'Asthma: covered (medical premium $60.00 USD, extra excess $100.00 USD)',
      'Hay fever: covered automatically',
      'Heart attack: excluded: claims arising from it are not covered',
      'COPD: cover declined: claims arising from it are not covered',
      'Charles Babbage: medical screening TC-FEDCBA9876543210 of 2026-11-21',
      'No medical condition declared.',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('moneyhelper');
  });

  it('says when medical cover was not chosen, and prints the UK directory when a screening calls for it', async () => {
    const text = await textOf(screened({ coverChosen: false, signposting: true }));
    expect(text).toContain('Medical cover was not chosen: none of these conditions is covered.');
    expect(text).toContain(squash(MEDICAL_COVER_DIRECTORY_TEXT));
  });

  it('in Spanish', async () => {
    const text = await textOf(screened(), 'es');
    expect(text).toContain('Condiciones médicas');
    expect(text).toContain('Ada Lovelace: evaluación médica TC-0123456789ABCDEF del 2026-11-20');
    expect(text).toContain('Asthma: cubierta (prima médica 60,00 $ USD, deducible adicional 100,00 $ USD)');
    expect(text).toContain('Heart attack: excluida');
    expect(text).toContain('No se declaró ninguna condición médica.');
  });

  it('has no section without a screened person, nor on a cancellation notice', async () => {
    expect(await textOf(undefined)).not.toContain('Medical conditions');
    expect(await textOf([])).not.toContain('Medical conditions');
    const cancelled = policyOf([detailOf(1), detailOf(2, { actionType: 'Cancellation' })]);
    const notice = await textOf(screened(), 'en', cancelled);
    expect(notice).toContain('Cancellation notice');
    expect(notice).not.toContain('Medical conditions');
    expect(notice).not.toContain('Asthma');
  });
});
