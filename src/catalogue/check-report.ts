import type { CatalogueProblem, LoadedFile } from './load.js';
import { pathText } from './load.js';

/** What the catalogue checks (checks.ts, checks-rates.ts) share: how a problem is reported, and the codes known. */

/** Records a problem at a path of a loaded file, with its line. */
export type Report = (file: LoadedFile<unknown>, path: (string | number)[], reason: string) => void;

export function reporter(problems: CatalogueProblem[]): Report {
  return (file, path, reason) => problems.push({ file: file.file, path: pathText(path), line: file.locate(path), reason });
}

export interface KnownCodes {
  readonly countries: ReadonlySet<string>;
  readonly destinations: ReadonlySet<string>;
  readonly provinces: ReadonlyMap<string, ReadonlySet<string>>;
  readonly homeCountries: ReadonlySet<string>;
}
