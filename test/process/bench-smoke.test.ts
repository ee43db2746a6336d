import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { BenchReport } from '../../bench/report.js';
import { scaled } from '../helpers/time-scale.js';

/**
 * Requests each server answers per row: a run sized by count, not time (`--requests`), so that the
 * run prepares the same few quotes, previews and screenings on a quiet machine as on a loaded one.
 */
const REQUESTS = '40';
/** The sustained row sells at a pace for a time: seconds of it. */
const SUSTAINED_SECONDS = '3';

const run = promisify(execFile);

/** Runs the bench script with `args` and its report into a fresh folder; answers its JSON report and Markdown. */
async function benchReport(args: readonly string[]): Promise<{ report: BenchReport; markdown: string }> {
  const out = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
  try {
    await run(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args, '--out', out], {
      env: { ...process.env, BENCH_START_SECONDS: String(scaled(30_000) / 1000) },
      timeout: scaled(150_000),
    });
    return {
      report: JSON.parse(readFileSync(join(out, 'latest.json'), 'utf8')) as BenchReport,
      markdown: readFileSync(join(out, 'latest.md'), 'utf8'),
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// Only checks that the bench script starts, drives each server and writes its report; the
// numbers of so tiny a run mean nothing and are never asserted.
describe('benchmark script', () => {
  it(
    'produces a JSON and Markdown report on a tiny run',
    async () => {
      const { report, markdown } = await benchReport([
        '--requests',
        REQUESTS,
        '--connections',
        '2',
        '--rounds',
        '2',
        '--only',
        'health,purchase,purchaseWithDocuments',
      ]);
      expect(report.scenarios.map((s) => s.name)).toEqual(['health', 'purchase', 'purchaseWithDocuments']);
      const [health, purchase, withDocuments] = report.scenarios;
      // Each server answered exactly the requests asked of it.
      expect(health!.endpoint.total).toBe(Number(REQUESTS));
      expect(health!.nodeCeiling.total).toBe(Number(REQUESTS));
      expect(health!.fastifyCeiling.total).toBe(Number(REQUESTS));
      // Two rounds each, the reported one among them.
      expect(health!.rounds).toHaveLength(2);
      expect(health!.rounds!.map((r) => r.ratioToNode)).toContain(health!.ratioToNode);
      expect(purchase!.rounds).toHaveLength(2);
      // Each purchase bought its own quote: none answered non-2xx, the supply did not run out.
      expect(purchase!.endpoint.total).toBe(Number(REQUESTS));
      expect(purchase!.endpoint).toMatchObject({ non2xx: 0, errors: 0, supplyExhausted: 0 });
      expect(purchase!.target).toMatch(/2xx\/s/);
      // Only the documents row waits for its server's worker to deliver every purchase's e-mail.
      expect(purchase!.endpoint.settleSeconds).toBeUndefined();
      expect(withDocuments!.endpoint).toMatchObject({ non2xx: 0, errors: 0, supplyExhausted: 0 });
      expect(withDocuments!.endpoint.settleSeconds).toBeGreaterThanOrEqual(0);
      expect(markdown).toContain(`2 connections × ${REQUESTS} requests per server`);
      expect(markdown).toMatch(/\| health \| \d+/);
      expect(markdown).toMatch(/\| purchase \| \d+/);
      expect(markdown).toMatch(/\| purchaseWithDocuments \| \d+/);
    },
    scaled(180_000),
  );

  it(
    'measures the policy changes beside the purchase, each confirm on its own preview',
    async () => {
      const { report, markdown } = await benchReport([
        '--requests',
        REQUESTS,
        '--connections',
        '2',
        '--only',
        'purchase,amendmentPreview,amendmentConfirm,cancellationConfirm',
      ]);
      const names = ['purchase', 'amendmentPreview', 'amendmentConfirm', 'cancellationConfirm'];
      expect(report.scenarios.map((s) => s.name)).toEqual(names);
      for (const scenario of report.scenarios) {
        // Every confirm confirmed its own preview: none refused, the supply did not run out.
        expect(scenario.endpoint.total, scenario.name).toBe(Number(REQUESTS));
        expect(scenario.endpoint, scenario.name).toMatchObject({ non2xx: 0, errors: 0 });
        expect(scenario.endpoint.supplyExhausted ?? 0, scenario.name).toBe(0);
        expect(scenario.nodeCeiling.total, scenario.name).toBeGreaterThan(0);
      }
      for (const name of names) expect(markdown).toMatch(new RegExp(`\\| ${name} \\| \\d+`));
    },
    scaled(180_000),
  );

  it(
    'measures the medical screening rows beside the purchase, each request on its own screening or quote',
    async () => {
      const names = ['purchase', 'screeningAnswer', 'screeningComplete', 'quoteRefreshScreened'];
      const { report, markdown } = await benchReport([
        '--requests',
        REQUESTS,
        '--connections',
        '2',
        '--only',
        names.join(','),
      ]);
      expect(report.scenarios.map((s) => s.name)).toEqual(names);
      for (const scenario of report.scenarios) {
        // Each answer, complete or refresh had its own prepared screening or quote: none refused, none left short.
        expect(scenario.endpoint.total, scenario.name).toBe(Number(REQUESTS));
        expect(scenario.endpoint, scenario.name).toMatchObject({ non2xx: 0, errors: 0 });
        expect(scenario.endpoint.supplyExhausted ?? 0, scenario.name).toBe(0);
        expect(scenario.nodeCeiling.total, scenario.name).toBeGreaterThan(0);
      }
      for (const name of names) expect(markdown).toMatch(new RegExp(`\\| ${name} \\| \\d+`));
    },
    scaled(180_000),
  );

  it(
    'sells at a steady pace and reports what was delivered, its lag and the drain',
    async () => {
      const { report, markdown } = await benchReport([
        '--duration',
        SUSTAINED_SECONDS,
        '--sell-rate',
        '10',
        '--only',
        'sustainedDelivery',
      ]);
      expect(report.scenarios).toEqual([]);
      const sustained = report.sustained!;
      expect(sustained).toMatchObject({ name: 'sustainedDelivery', sellRate: 10, failed: 0 });
      expect(sustained.soldPerSecond).toBeGreaterThan(0);
      // Every purchase's e-mail reached the SMTP sink and its events the receiver (three each).
      expect(sustained.emailLagAll.count).toBe(sustained.sold);
      expect(sustained.webhookLagAll.count).toBe(3 * sustained.sold);
      expect(sustained.emailLagAll.p99Ms).toBeGreaterThan(0);
      expect(sustained.drainSeconds).toBeGreaterThanOrEqual(0);
      expect(markdown).toMatch(/\*\*sustainedDelivery\*\*/);
      expect(markdown).toMatch(/\| 10 \| [\d.]+ \| 0 \|/);
    },
    scaled(180_000),
  );
});
