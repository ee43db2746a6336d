import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { BenchReport } from '../../bench/report.js';

const run = promisify(execFile);

// Only checks that the bench script starts, drives each server and writes its report; the
// numbers of so tiny a run mean nothing and are never asserted.
describe('benchmark script', () => {
  it('produces a JSON and Markdown report on a tiny run', async () => {
    const out = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
    try {
      await run(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--duration', '1', '--connections', '2', '--only', 'health', '--out', out], {
        env: { ...process.env },
        timeout: 90_000,
      });
      const report = JSON.parse(readFileSync(join(out, 'latest.json'), 'utf8')) as BenchReport;
      expect(report.scenarios.map((s) => s.name)).toEqual(['health']);
      const [health] = report.scenarios;
      expect(health!.endpoint.total).toBeGreaterThan(0);
      expect(health!.nodeCeiling.total).toBeGreaterThan(0);
      expect(health!.fastifyCeiling.total).toBeGreaterThan(0);
      expect(readFileSync(join(out, 'latest.md'), 'utf8')).toMatch(/\| health \| \d+/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
