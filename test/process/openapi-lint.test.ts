import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { scaled } from '../helpers/time-scale.js';

const run = promisify(execFile);

interface Finding {
  code: string;
  severity: number;
  message: string;
  path: string[];
}

/** Spectral's findings of severity error or warning; throws when spectral itself fails. */
async function spectral(document: unknown): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const { stdout } = await run(
      'node_modules/.bin/spectral',
      ['lint', file, '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet'],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const findings = JSON.parse(stdout) as Finding[];
    return findings.filter((f) => f.severity <= 1).map((f) => `${f.code} at ${f.path.join('.')}: ${f.message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Redocly's recommended rules (redocly.yaml) on the document; its summary line, or the failure output. */
async function redocly(document: unknown): Promise<{ ok: boolean; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const { stdout, stderr } = await run(
      'node_modules/.bin/redocly',
      ['lint', file, '--config', 'redocly.yaml', '--format', 'stylish'],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return { ok: false, output: stdout + stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('OpenAPI document', () => {
  // The committed copy is generated with this public URL (see `npm run openapi:write`).
  const t = useTestApp({ env: { PUBLIC_BASE_URL: 'http://localhost:3000' } });

  const fetchDocument = async () => {
    const res = await t().app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    return res.json<{ openapi: string; paths: Record<string, unknown> }>();
  };

  it(
    'passes spectral lint (oas ruleset) with no errors and no warnings',
    async () => {
      // The known-bad document proves the linter really runs and reports.
      const broken = {
        openapi: '3.1.0',
        info: { title: 'x', version: '1' },
        paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } },
      };
      expect((await spectral(broken)).length).toBeGreaterThan(0);
      expect(await spectral(await fetchDocument())).toEqual([]);
    },
    scaled(60_000),
  );

  it(
    'passes redocly lint (recommended rules) with no errors',
    async () => {
      const broken = {
        openapi: '3.1.0',
        info: { title: 'x', version: '1' },
        paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } },
      };
      expect((await redocly(broken)).ok).toBe(false);
      const result = await redocly(await fetchDocument());
      expect(result.output).not.toMatch(/\berror\b/);
      expect(result.ok).toBe(true);
    },
    scaled(60_000),
  );
});
