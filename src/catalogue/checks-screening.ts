import { minorDigits, toMinor } from '../kernel/money/units.js';
import { TEST_CONDITION_CODES, TRAVEL_MODES } from '../screening/model.js';
import type { Report } from './check-report.js';
import type { LoadedBrand, LoadedCatalogue, LoadedFile } from './load.js';
import { searchKey } from './screening.js';
import type { ScreeningFile } from './screening-files.js';

type Path = (string | number)[];

/**
 * shared/screening.yaml and each brand's screening.yaml: every reference resolves (regions,
 * conditions, questions, choices, plan codes), ids and synonyms are unique, bands ascend, amounts fit
 * the currency, and every text exists in each language some brand offers.
 */
export function checkScreening(catalogue: LoadedCatalogue, report: Report): void {
  const { screening } = catalogue;
  const file = screening.value;
  const languages = new Map<string, string>();
  for (const b of catalogue.brands) for (const lang of Object.keys(b.brand.value.languages)) if (!languages.has(lang)) languages.set(lang, b.brandCode);
  const texts = (text: Readonly<Record<string, string>> | undefined, path: Path) => {
    for (const [lang, brandCode] of languages) if (!text?.[lang]) report(screening, path, `no text in '${lang}' (offered by ${brandCode})`);
  };
  for (const code of ['YES', 'NO']) if (!file.choiceTexts[code]) report(screening, ['choiceTexts'], `the gate questions' choice ${code} needs a text here`);
  for (const [code, text] of Object.entries(file.choiceTexts)) texts(text, ['choiceTexts', code]);
  unique(file.gate.map((g) => g.id), (i, id) => report(screening, ['gate', i, 'id'], `question id '${id}' is used twice`));
  file.gate.forEach((g, i) => texts(g.text, ['gate', i, 'text']));
  texts(file.travelMode.text, ['travelMode', 'text']);
  texts(file.conditionsText, ['conditionsText']);
  checkChoices(screening, file.travelMode.choices, ['travelMode', 'choices'], report, texts);
  file.travelMode.choices.forEach((c, i) => {
    if (!(TRAVEL_MODES as readonly string[]).includes(c.code)) report(screening, ['travelMode', 'choices', i, 'code'], `'${c.code}' is not a travel mode (${TRAVEL_MODES.join(', ')})`);
  });
  for (const mode of TRAVEL_MODES) if (!file.travelMode.choices.some((c) => c.code === mode)) report(screening, ['travelMode', 'choices'], `travel mode ${mode} has no choice`);
  const regions = new Set(catalogue.destinations.value.ratingRegions);
  for (const region of Object.keys(file.regions)) if (!regions.has(region)) report(screening, ['regions', region], `'${region}' is not a rating region of shared/destinations.yaml`);
  for (const region of regions) if (!(region in file.regions)) report(screening, ['regions'], `rating region '${region}' has no multiplier`);
  checkConditions(screening, report, texts);
  const conditions = new Set(file.conditions.map((c) => c.code));
  const pairs = new Set<string>();
  file.pairs.forEach((pair, i) => {
    if (!conditions.has(pair.condition)) report(screening, ['pairs', i, 'condition'], `unknown condition '${pair.condition}'`);
    if (!regions.has(pair.region)) report(screening, ['pairs', i, 'region'], `'${pair.region}' is not a rating region of shared/destinations.yaml`);
    if (pairs.has(`${pair.condition} ${pair.region}`)) report(screening, ['pairs', i], `pair ${pair.condition} × ${pair.region} is listed twice`);
    pairs.add(`${pair.condition} ${pair.region}`);
  });
  checkTestConditions(screening, report, texts);
  for (const brand of catalogue.brands) checkBrandScreening(brand, report);
}

type CheckTexts = (text: Readonly<Record<string, string>> | undefined, path: Path) => void;

function unique(values: readonly string[], duplicate: (index: number, value: string) => void): void {
  const seen = new Set<string>();
  values.forEach((value, i) => {
    if (seen.has(value)) duplicate(i, value);
    seen.add(value);
  });
}

function checkChoices(file: LoadedFile<ScreeningFile>, choices: readonly { code: string; text?: Record<string, string> }[], at: Path, report: Report, texts: CheckTexts): void {
  unique(choices.map((c) => c.code), (i, code) => report(file, [...at, i, 'code'], `choice '${code}' is used twice`));
  choices.forEach((c, i) => {
    if (c.text) texts(c.text, [...at, i, 'text']);
    else if (!file.value.choiceTexts[c.code]) report(file, [...at, i], `choice '${c.code}' has no text and choiceTexts has none`);
  });
}

function checkConditions(screening: LoadedFile<ScreeningFile>, report: Report, texts: CheckTexts): void {
  const file = screening.value;
  const testCodes = new Set(file.testConditions.map((t) => t.code));
  const names = new Map<string, string>();
  for (const c of file.conditions) for (const [lang, name] of Object.entries(c.names)) names.set(`${lang} ${searchKey(name)}`, c.code);
  unique(file.conditions.map((c) => c.code), (i, code) => report(screening, ['conditions', i, 'code'], `condition '${code}' is listed twice`));
  file.conditions.forEach((condition, i) => {
    const at: Path = ['conditions', i];
    if (testCodes.has(condition.code) || condition.code.startsWith('TEST_')) report(screening, [...at, 'code'], `'${condition.code}': TEST_ codes are reserved for testConditions`);
    texts(condition.names, [...at, 'names']);
    for (const [lang, synonyms] of Object.entries(condition.synonyms ?? {})) {
      const keys = [searchKey(condition.names[lang] ?? ''), ...synonyms.map(searchKey)];
      synonyms.forEach((synonym, j) => {
        const key = searchKey(synonym);
        if (keys.indexOf(key) !== j + 1) report(screening, [...at, 'synonyms', lang, j], `synonym '${synonym}' repeats the name or another synonym`);
        const owner = names.get(`${lang} ${key}`);
        if (owner && owner !== condition.code) report(screening, [...at, 'synonyms', lang, j], `synonym '${synonym}' is the name of ${owner}`);
      });
    }
    unique(condition.questions.map((q) => q.id), (j, id) => report(screening, [...at, 'questions', j, 'id'], `question id '${id}' is used twice in ${condition.code}`));
    condition.questions.forEach((question, j) => {
      const qat: Path = [...at, 'questions', j];
      texts(question.text, [...qat, 'text']);
      checkChoices(screening, question.choices, [...qat, 'choices'], report, texts);
      if (question.askedWhen) checkAnswerIs(question.askedWhen, condition.questions.slice(0, j), [...qat, 'askedWhen'], 'an earlier question of the condition');
    });
    condition.autoCover?.forEach((rule, j) => checkAnswerIs(rule, condition.questions, [...at, 'autoCover', j], `a question of ${condition.code}`));
  });

  function checkAnswerIs(rule: { question: string; choices: readonly string[] }, questions: ScreeningFile['conditions'][number]['questions'], at: Path, what: string): void {
    const question = questions.find((q) => q.id === rule.question);
    if (!question) {
      report(screening, [...at, 'question'], `'${rule.question}' is not ${what}`);
      return;
    }
    rule.choices.forEach((code, k) => {
      if (!question.choices.some((c) => c.code === code)) report(screening, [...at, 'choices', k], `'${code}' is not a choice of question '${rule.question}'`);
    });
  }
}

function checkTestConditions(screening: LoadedFile<ScreeningFile>, report: Report, texts: CheckTexts): void {
  const tests = screening.value.testConditions;
  const codes: readonly string[] = TEST_CONDITION_CODES;
  unique(tests.map((t) => t.code), (i, code) => report(screening, ['testConditions', i, 'code'], `test condition '${code}' is listed twice`));
  tests.forEach((test, i) => {
    const at: Path = ['testConditions', i];
    if (!codes.includes(test.code)) report(screening, [...at, 'code'], `'${test.code}' is not a test condition (${codes.join(', ')})`);
    if (test.outcome !== 'COVERED' && (test.medicalPremium || test.excess)) report(screening, at, 'a medical premium or excess is for a COVERED outcome only');
    texts(test.names, [...at, 'names']);
  });
  for (const code of codes) if (!tests.some((t) => t.code === code)) report(screening, ['testConditions'], `test condition ${code} is missing`);
}

function checkBrandScreening({ screening, plans, brand }: LoadedBrand, report: Report): void {
  const file = screening.value;
  const codes = new Set(plans.value.plans.map((p) => p.code));
  const currency = brand.value.currencyCode;
  const digits = minorDigits(currency);
  const checkBands = (bands: typeof file.bands, at: Path) => {
    bands.forEach((band, i) => {
      const bat: Path = [...at, i];
      const last = i === bands.length - 1;
      if (last && band.upTo !== undefined) report(screening, [...bat, 'upTo'], 'the last band takes every higher score: no upTo');
      if (!last && band.upTo === undefined) report(screening, bat, 'only the last band may leave out upTo');
      const previous = bands[i - 1]?.upTo;
      if (band.upTo !== undefined && previous !== undefined && band.upTo <= previous) report(screening, [...bat, 'upTo'], `bands must ascend: ${band.upTo} is not above ${previous}`);
      if (band.outcome !== 'COVERED' && (band.medicalPremium || band.excess)) report(screening, bat, 'a medical premium or excess is for a COVERED band only');
      if (band.outcome === 'COVERED' && band.declinesTraveller) report(screening, [...bat, 'declinesTraveller'], 'a COVERED band cannot decline the traveller');
      for (const field of ['medicalPremium', 'excess'] as const) {
        const amount = band[field];
        if (amount !== undefined && toMinor(amount, digits) / 10 ** digits !== amount) report(screening, [...bat, field], `${amount} has more than ${digits} decimals (${currency})`);
      }
    });
  };
  checkBands(file.bands, ['bands']);
  for (const [code, plan] of Object.entries(file.plans)) {
    if (!codes.has(code)) report(screening, ['plans', code], `plan code '${code}' is not in plans.yaml`);
    if (plan.bands) checkBands(plan.bands, ['plans', code, 'bands']);
  }
}
