import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { TSchema } from 'typebox';
import Value from 'typebox/value';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { BRAND_CODES, type BrandCode } from '../kernel/brands.js';
import { RateTable } from '../pricing/rate-tables.js';
import { BrandFile, CountriesFile, DestinationsFile, PlansFile, QuoteConfigFile, ServicingFile } from './file-schemas.js';
import { BrandScreeningFile, ScreeningFile } from './screening-files.js';
import { BrandReferralsFile } from './referral-files.js';

/** One problem found in the catalogue: which file, where inside it, and why. */
export interface CatalogueProblem {
  readonly file: string;
  /** Dotted path inside the file, e.g. `plans[0].versions[1].planId`; empty for the whole file. */
  readonly path: string;
  readonly line?: number;
  readonly reason: string;
}

export function formatProblem(p: CatalogueProblem): string {
  return `${p.file}${p.line ? `:${p.line}` : ''}${p.path ? ` at ${p.path}` : ''}: ${p.reason}`;
}

const BRAND_FILES = { brand: BrandFile, quoteConfig: QuoteConfigFile, plans: PlansFile, rates: RateTable, servicing: ServicingFile, screening: BrandScreeningFile, referrals: BrandReferralsFile } as const;
const SHARED_FILES = { destinations: DestinationsFile, countries: CountriesFile, screening: ScreeningFile } as const;
const FILE_NAMES: Record<string, string> = {
  brand: 'brand.yaml',
  quoteConfig: 'quote-config.yaml',
  plans: 'plans.yaml',
  rates: 'rates.yaml',
  servicing: 'servicing.yaml',
  screening: 'screening.yaml',
  referrals: 'referrals.yaml',
  destinations: 'destinations.yaml',
  countries: 'countries.yaml',
};

/** A parsed file; `locate` turns a path inside it into a line number. */
export interface LoadedFile<T> {
  readonly file: string;
  readonly value: T;
  readonly locate: (path: readonly (string | number)[]) => number | undefined;
}

export interface LoadedBrand {
  readonly brandCode: BrandCode;
  readonly brand: LoadedFile<BrandFile>;
  readonly quoteConfig: LoadedFile<QuoteConfigFile>;
  readonly plans: LoadedFile<PlansFile>;
  readonly rates: LoadedFile<RateTable>;
  readonly servicing: LoadedFile<ServicingFile>;
  readonly screening: LoadedFile<BrandScreeningFile>;
  readonly referrals: LoadedFile<BrandReferralsFile>;
}

export interface LoadedCatalogue {
  readonly destinations: LoadedFile<DestinationsFile>;
  readonly countries: LoadedFile<CountriesFile>;
  readonly screening: LoadedFile<ScreeningFile>;
  readonly brands: readonly LoadedBrand[];
}

export function pathText(path: readonly (string | number)[]): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part), '');
}

function pointerToPath(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

async function loadFile<T>(root: string, file: string, schema: TSchema, problems: CatalogueProblem[]): Promise<LoadedFile<T> | undefined> {
  const name = relative(root, file) || file;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    problems.push({ file: name, path: '', reason: 'file is missing' });
    return undefined;
  }
  const lineCounter = new LineCounter();
  const doc: Document = parseDocument(text, { lineCounter, merge: true, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      problems.push({ file: name, path: '', line: lineCounter.linePos(error.pos[0]).line, reason: `YAML: ${error.message.split('\n')[0] ?? ''}` });
    }
    return undefined;
  }
  const locate = (path: readonly (string | number)[]): number | undefined => {
    for (let length = path.length; length >= 0; length -= 1) {
      const node: unknown = doc.getIn(path.slice(0, length), true);
      const range = (node as { range?: [number, number, number] } | undefined)?.range;
      if (range) return lineCounter.linePos(range[0]).line;
    }
    return undefined;
  };
  const value: unknown = doc.toJS({ maxAliasCount: 10_000 });
  let valid = true;
  for (const error of Value.Errors(schema, value)) {
    if (error.keyword === 'additionalProperties') continue; // reported once per field as "unknown field"
    valid = false;
    const path = pointerToPath(error.instancePath);
    const reason = error.message === 'schema is false' ? `unknown field '${String(path.at(-1))}'` : error.message;
    problems.push({ file: name, path: pathText(path), line: locate(path), reason });
  }
  return valid ? { file: name, value: value as T, locate } : undefined;
}

/**
 * Reads `dir` (shared/ and one folder per brand) and checks every file against its schema.
 * Returns the catalogue only when every file parsed and conformed; problems list all the rest.
 */
export async function loadCatalogue(dir: string): Promise<{ catalogue?: LoadedCatalogue; problems: CatalogueProblem[] }> {
  const problems: CatalogueProblem[] = [];
  const expected = new Set<string>();
  const shared: Partial<Record<keyof typeof SHARED_FILES, LoadedFile<unknown>>> = {};
  for (const [kind, schema] of Object.entries(SHARED_FILES) as [keyof typeof SHARED_FILES, TSchema][]) {
    const file = join(dir, 'shared', FILE_NAMES[kind] ?? '');
    expected.add(file);
    shared[kind] = await loadFile(dir, file, schema, problems);
  }
  const brands: LoadedBrand[] = [];
  for (const brandCode of BRAND_CODES) {
    const files: Partial<Record<keyof typeof BRAND_FILES, LoadedFile<unknown>>> = {};
    for (const [kind, schema] of Object.entries(BRAND_FILES) as [keyof typeof BRAND_FILES, TSchema][]) {
      const file = join(dir, brandCode, FILE_NAMES[kind] ?? '');
      expected.add(file);
      files[kind] = await loadFile(dir, file, schema, problems);
    }
    if (files.brand && files.quoteConfig && files.plans && files.rates && files.servicing && files.screening && files.referrals) brands.push({ brandCode, ...files } as LoadedBrand);
  }
  for (const entry of await listYaml(dir)) {
    if (!expected.has(entry)) problems.push({ file: relative(dir, entry), path: '', reason: 'not a catalogue file (unknown name or folder)' });
  }
  if (problems.length > 0 || !shared.destinations || !shared.countries || !shared.screening) return { problems };
  return {
    catalogue: { destinations: shared.destinations as LoadedFile<DestinationsFile>, countries: shared.countries as LoadedFile<CountriesFile>,
      screening: shared.screening as LoadedFile<ScreeningFile>,
      brands,
    },
    problems,
  };
}

async function listYaml(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile() && /\.(ya?ml|json)$/.test(e.name)).map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}
