import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateCatalogue } from '../../src/catalogue/compile.js';
import { formatProblem } from '../../src/catalogue/load.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("catalogue validate: a brand's look", () => {
  it('every brand has a colour and a mark; a pale colour or a logo that loads or runs anything is refused at its line', async () => {
    const { catalogue } = await validateCatalogue('catalogue');
    for (const brand of catalogue!.brands) {
      const types = brand.brand.contentItems[brand.brand.defaultLanguage]!.map((i) => i.type);
      expect(types, brand.brandCode).toEqual(expect.arrayContaining(['BRANDCOLOUR', 'BRANDLOGO']));
    }

    const dir = mkdtempSync(join(tmpdir(), 'catalogue-look-'));
    dirs.push(dir);
    cpSync('catalogue', dir, { recursive: true });
    const file = join(dir, 'nomad/brand.yaml');
    const text = readFileSync(file, 'utf8');
    const edited = text
      .replace('content: "#6d28d9"', 'content: "#a0a0ff"')
      .replace('<circle cx="20" cy="20" r="20"', '<script>alert(1)</script><circle cx="20" cy="20" r="20"');
    expect(edited).not.toBe(text);
    writeFileSync(file, edited);
    const lineOf = (needle: string) => edited.split('\n').findIndex((l) => l.includes(needle)) + 1;
    const { problems } = await validateCatalogue(dir);
    expect(problems.map(formatProblem)).toEqual([
      `nomad/brand.yaml:${lineOf('#a0a0ff')} at contentItems.en[9].content: BRANDCOLOUR #a0a0ff has a contrast of 2.34:1 with white; at least 4.5:1 is needed`,
      `nomad/brand.yaml:${lineOf('<script>')} at contentItems.en[10].content: BRANDLOGO: the logo may not hold scripts, event handlers, foreign objects or references to other files`,
    ]);
  });
});
