import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateCatalogue } from '../../src/catalogue/compile.js';
import { formatProblem } from '../../src/catalogue/load.js';
import { catalogueCopies } from '../helpers/catalogue-copy.js';

const copies = catalogueCopies();
afterAll(copies.removeAll);
const SHARED = 'shared/screening.yaml';
const problemsOf = async (dir: string) => (await validateCatalogue(dir)).problems.map(formatProblem);

describe('catalogue validate: medical screening', () => {
  it('compiles the screening data into the catalogue: conditions, test conditions, offered plans in minor units', async () => {
    const { catalogue, problems } = await validateCatalogue('catalogue');
    expect(problems).toEqual([]);
    expect(catalogue?.screening.conditions.length).toBeGreaterThanOrEqual(25);
    expect(catalogue?.screening.testConditions.map((t) => t.code)).toEqual(['TEST_AUTO_COVERED', 'TEST_COVERED', 'TEST_EXCLUDED', 'TEST_DECLINED', 'TEST_DECLINE_TRAVELLER', 'TEST_REFERRED']);
    const au = catalogue?.brands.find((b) => b.brandCode === 'brandau');
    expect(Object.keys(au?.screening.plans ?? {})).toEqual(['COMP', 'ESSE', 'AMT']);
    expect(au?.screening.plans.COMP?.bands[1]).toEqual({ upTo: 3, outcome: 'COVERED', medicalPremiumMinor: 4500, excessMinor: 0, declinesTraveller: false });
    expect(catalogue?.screening.gate[0]?.choices).toEqual([
      { code: 'YES', weight: 1, text: { en: 'Yes', es: 'Sí' } },
      { code: 'NO', weight: 1, text: { en: 'No', es: 'No' } },
    ]);
  });

  it('refuses unknown rating regions, in the multipliers and in pairs, and pairs of unknown conditions', async () => {
    const dir = copies.brokenCopy(SHARED, (t) =>
      t.replace('  ASIA: 1.15', '  ASIAX: 1.15').replace('{ condition: COPD, region: ASIA,', '{ condition: COPDX, region: ASIA,').replace('{ condition: STROKE, region: WORLDWIDE,', '{ condition: STROKE, region: MARS,'),
    );
    expect(await problemsOf(dir)).toEqual([
      "shared/screening.yaml:47 at regions.ASIAX: 'ASIAX' is not a rating region of shared/destinations.yaml",
      "shared/screening.yaml:46 at regions: rating region 'ASIA' has no multiplier",
      "shared/screening.yaml:384 at pairs[4].region: 'MARS' is not a rating region of shared/destinations.yaml",
      "shared/screening.yaml:387 at pairs[7].condition: unknown condition 'COPDX'",
    ]);
  });

  it('refuses a follow-up depending on an unknown, later or unknown-choice question, and bad automatic-cover criteria', async () => {
    const dir = copies.brokenCopy(SHARED, (t) =>
      t
        .replace('      - id: care\n', '      - id: care\n        askedWhen: { question: nope, choices: ["YES"] }\n')
        .replace('      - id: spread\n', '      - id: spread\n        askedWhen: { question: treatment, choices: [CHEMO] }\n')
        .replace('      - id: treatment\n        text:\n          en: Which', '      - id: treatment\n        askedWhen: { question: spread, choices: [MAYBE] }\n        text:\n          en: Which')
        .replace('      - { question: lastSeizure, choices: [OVER_12_MONTHS] }', '      - { question: lastSeizure, choices: [NEVER] }\n      - { question: seizures, choices: ["NO"] }'),
    );
    expect(await problemsOf(dir)).toEqual([
      "shared/screening.yaml:240 at conditions[12].autoCover[0].choices[0]: 'NEVER' is not a choice of question 'lastSeizure'",
      "shared/screening.yaml:241 at conditions[12].autoCover[1].question: 'seizures' is not a question of EPILEPSY",
      "shared/screening.yaml:249 at conditions[13].questions[0].askedWhen.question: 'treatment' is not an earlier question of the condition",
      "shared/screening.yaml:255 at conditions[13].questions[1].askedWhen.choices[0]: 'MAYBE' is not a choice of question 'spread'",
      "shared/screening.yaml:369 at conditions[24].questions[0].askedWhen.question: 'nope' is not an earlier question of the condition",
    ]);
  });

  it('refuses duplicate condition codes, question ids, choices, synonyms and pairs', async () => {
    const dir = copies.brokenCopy(SHARED, (t) =>
      t
        .replace('  - code: GLAUCOMA', '  - code: HYPOTHYROIDISM')
        .replace('      - id: spread\n', '      - id: treatment\n')
        .replace('[asthmatic, wheezing, inhaler]', '[asthmatic, Wheezing, wheezing, angina]')
        .replace('{ code: UNDER_2_YEARS, weight: 1.4,', '{ code: UNDER_6_MONTHS, weight: 1.4,')
        .replace('  - { condition: COPD, region: ASIA, weight: 1.2 }', '  - { condition: COPD, region: ASIA, weight: 1.2 }\n  - { condition: COPD, region: ASIA, weight: 1.3 }'),
    );
    expect(await problemsOf(dir)).toEqual([
      "shared/screening.yaml:342 at conditions[22].code: condition 'HYPOTHYROIDISM' is listed twice",
      "shared/screening.yaml:55 at conditions[0].synonyms.en[2]: synonym 'wheezing' repeats the name or another synonym",
      "shared/screening.yaml:55 at conditions[0].synonyms.en[3]: synonym 'angina' is the name of ANGINA",
      "shared/screening.yaml:159 at conditions[6].questions[0].choices[1].code: choice 'UNDER_6_MONTHS' is used twice",
      "shared/screening.yaml:252 at conditions[13].questions[1].id: question id 'treatment' is used twice in CANCER_TREATMENT",
      'shared/screening.yaml:388 at pairs[8]: pair COPD × ASIA is listed twice',
    ]);
  });

  it('requires every text in each language a brand offers, and every weight above 0', async () => {
    const dir = copies.brokenCopy(SHARED, (t) => t.replace('names: { en: Asthma, es: Asma }', 'names: { en: Asthma }').replace('  NO: { en: "No", es: "No" }', '  NO: { en: "No" }'));
    expect(await problemsOf(dir)).toEqual([
      "shared/screening.yaml:9 at choiceTexts.NO: no text in 'es' (offered by nomad)",
      "shared/screening.yaml:54 at conditions[0].names: no text in 'es' (offered by nomad)",
    ]);
    const weights = copies.brokenCopy(SHARED, (t) => t.replace('  EUROPE: 1.25', '  EUROPE: 0').replace('weight: 1.2\n    questions:', 'weight: -1\n    questions:'));
    expect(await problemsOf(weights)).toEqual([
      'shared/screening.yaml:48 at regions.EUROPE: must be > 0',
      'shared/screening.yaml:56 at conditions[0].weight: must be > 0',
    ]);
  });

  it('requires every travel mode and every fixed test condition, once', async () => {
    const dir = copies.brokenCopy(SHARED, (t) =>
      t.replace('    - { code: NONE, weight: 0.9,', '    - { code: CAR, weight: 0.9,').replace(/ {2}- \{ code: TEST_REFERRED.*\n/, '').replace('{ code: TEST_EXCLUDED, outcome: EXCLUDED,', '{ code: TEST_EXCLUDED, outcome: EXCLUDED, excess: 10,'),
    );
    expect(await problemsOf(dir)).toEqual([
      "shared/screening.yaml:38 at travelMode.choices[3].code: 'CAR' is not a travel mode (AIR, CRUISE, BOTH, NONE)",
      'shared/screening.yaml:35 at travelMode.choices: travel mode NONE has no choice',
      'shared/screening.yaml:395 at testConditions[2]: a medical premium or excess is for a COVERED outcome only',
      'shared/screening.yaml:393 at testConditions: test condition TEST_REFERRED is missing',
    ]);
  });

  it('refuses bands out of order, open before the last, amounts on other outcomes or finer than the currency, unknown plan codes', async () => {
    const dir = copies.brokenCopy('brandau/screening.yaml', (t) =>
      t
        .replace('{ upTo: 6, outcome: COVERED, medicalPremium: 120.00, excess: 250.00 }', '{ upTo: 2.5, outcome: COVERED, medicalPremium: 120.005, excess: 250.00 }')
        .replace('{ upTo: 10, outcome: EXCLUDED }', '{ outcome: EXCLUDED, excess: 10 }')
        .replace('  AMT: { offered: true }', '  GOLD: { offered: true }\n  AMT: { offered: true }'),
    );
    copies.edit(dir, 'nomad/screening.yaml', (t) => t.replace('  - { outcome: DECLINED, declinesTraveller: true }', '  - { upTo: 20, outcome: COVERED, declinesTraveller: true }'));
    expect(await problemsOf(dir)).toEqual([
      'brandau/screening.yaml:8 at bands[2].upTo: bands must ascend: 2.5 is not above 3',
      'brandau/screening.yaml:8 at bands[2].medicalPremium: 120.005 has more than 2 decimals (AUD)',
      'brandau/screening.yaml:9 at bands[3]: only the last band may leave out upTo',
      'brandau/screening.yaml:9 at bands[3]: a medical premium or excess is for a COVERED band only',
      "brandau/screening.yaml:26 at plans.GOLD: plan code 'GOLD' is not in plans.yaml",
      'nomad/screening.yaml:8 at bands[4].upTo: the last band takes every higher score: no upTo',
      'nomad/screening.yaml:8 at bands[4].declinesTraveller: a COVERED band cannot decline the traveller',
    ]);
  });

  it('refuses a brand without screening.yaml', async () => {
    const dir = copies.brokenCopy('directau/screening.yaml', () => '');
    rmSync(join(dir, 'directau/screening.yaml'));
    expect(await problemsOf(dir)).toEqual(['directau/screening.yaml: file is missing']);
  });
});
