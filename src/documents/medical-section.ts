import { amountTextIn } from '../kernel/money/currency.js';
import { isolated, type PdfWriter } from '../kernel/pdf/writer.js';
import { MEDICAL_COVER_DIRECTORY_TEXT } from '../quotes/screening-rules.js';
import type { ConditionOutcome } from '../screening/model.js';
import type { CertificateFacts, MedicalFacts } from './certificate-facts.js';
import type { DocumentLanguage } from './labels.js';

/** The words of a certificate's "Medical conditions" section, per document language. */
interface MedicalLabels {
  readonly heading: string;
  readonly screening: (reference: string, date: string) => string;
  readonly outcomes: Readonly<Record<ConditionOutcome, string>>;
  readonly loading: (premium: string | undefined, excess: string | undefined) => string;
  readonly nothingDeclared: string;
  readonly detailGone: string;
  readonly coverNotChosen: string;
  readonly directory: string;
}

const WORDS: Readonly<Record<DocumentLanguage, MedicalLabels>> = {
  en: {
    heading: 'Medical conditions',
    screening: (reference, date) => `medical screening ${reference} of ${date}`,
    outcomes: {
      AUTO_COVERED: 'covered automatically',
      COVERED: 'covered',
      EXCLUDED: 'excluded: claims arising from it are not covered',
      DECLINED: 'cover declined: claims arising from it are not covered',
      REFERRED: 'awaiting an underwriter: not covered',
    },
    loading: (premium, excess) =>
      [premium && `medical premium ${premium}`, excess && `extra excess ${excess}`].filter(Boolean).join(', '),
    nothingDeclared: 'No medical condition declared.',
    detailGone: 'The screened conditions are no longer held.',
    coverNotChosen: 'Medical cover was not chosen: none of these conditions is covered.',
    directory: MEDICAL_COVER_DIRECTORY_TEXT,
  },
  es: {
    heading: 'Condiciones médicas',
    screening: (reference, date) => `evaluación médica ${reference} del ${date}`,
    outcomes: {
      AUTO_COVERED: 'cubierta automáticamente',
      COVERED: 'cubierta',
      EXCLUDED: 'excluida: no se cubren los siniestros que deriven de ella',
      DECLINED: 'cobertura denegada: no se cubren los siniestros que deriven de ella',
      REFERRED: 'pendiente de un suscriptor: no cubierta',
    },
    loading: (premium, excess) =>
      [premium && `prima médica ${premium}`, excess && `deducible adicional ${excess}`].filter(Boolean).join(', '),
    nothingDeclared: 'No se declaró ninguna condición médica.',
    detailGone: 'Las condiciones evaluadas ya no se conservan.',
    coverNotChosen: 'No se eligió la cobertura médica: ninguna de estas condiciones está cubierta.',
    directory:
      'Si no puede obtener cobertura para una condición médica, o su coste es alto, el directorio de seguros de ' +
      'viaje de MoneyHelper lista aseguradoras que podrían cubrirla: moneyhelper.org.uk/travel-insurance-directory ' +
      'o 0800 138 7777.',
  },
};

/**
 * Each screened traveller and dependent of the transaction: the screening's reference and date,
 * then every declared condition by name with its outcome (a covered one with its loading), and
 * the UK medical cover directory when a screening calls for it. Nothing screened: no section.
 */
export function medicalSection(out: PdfWriter, facts: CertificateFacts): void {
  const screened = facts.medical ?? [];
  if (screened.length === 0) return;
  const words = WORDS[facts.language];
  const money = amountTextIn(facts.language, facts.policy.currency.code, facts.policy.currency.minorUnits);
  out.heading(words.heading);
  for (const m of screened) {
    const name = isolated([m.person.title, m.person.firstName, m.person.surname].filter(Boolean).join(' '));
    out.line(`${name}: ${words.screening(m.reference, m.screeningDate)}`);
    for (const line of conditionLines(m, words, money)) out.line(`  ${line}`);
    if (!m.coverChosen && m.conditions.length > 0) out.line(`  ${words.coverNotChosen}`);
  }
  if (screened.some((m) => m.signposting)) out.line(words.directory, 8);
}

function conditionLines(m: MedicalFacts, words: MedicalLabels, money: (minor: number) => string): string[] {
  if (m.conditions.length === 0)
    return [m.outcome === 'NO_SCREENING_NEEDED' ? words.nothingDeclared : words.detailGone];
  return m.conditions.map((c) => {
    const loading =
      c.outcome === 'COVERED'
        ? words.loading(
            c.medicalPremiumMinor > 0 ? money(c.medicalPremiumMinor) : undefined,
            c.excessMinor > 0 ? money(c.excessMinor) : undefined,
          )
        : '';
    return `${isolated(c.name)}: ${words.outcomes[c.outcome]}${loading ? ` (${loading})` : ''}`;
  });
}
