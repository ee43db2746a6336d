import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { BenchReport } from '../../bench/report.js';
import { scaled } from '../helpers/time-scale.js';

/** Seconds of load per server: long enough for a confirm to be answered on a loaded machine (one scale). */
const LOAD_SECONDS = String(Math.max(1, Math.round(scaled(1000) / 1000)));
/**
 * Previews prepared per second of load for each confirm row: enough that two connections never
 * run out on a quiet machine (~160 confirms/s), so the run prepares 900 per row at scale 3.
 */
const CHANGE_SUPPLY = '300';
/**
 * Ready quotes prepared per second of load for each purchase row (the bench's default, 1600, is
 * for 50 connections): two connections sell fewer than the full run's 50 do on the same machine
 * (~600/s on SQLite, bench/results), so half the default never runs out and halves the preparation.
 */
const PURCHASE_SUPPLY = '800';
/**
 * Screenings (or screened quotes) prepared per second of load for each screening row: above what
 * two connections reach on a quiet machine (an answer or complete costs ~1.3 ms of server CPU).
 */
const SCREENING_SUPPLY = '800';

const run = promisify(execFile);

/** Runs the bench script with `args` and its report into a fresh folder; answers its JSON report and Markdown. */
async function benchReport(args: readonly string[]): Promise<{ report: BenchReport; markdown: string }> {
  const out = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
  try {
    await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'bench/run.ts',
        '--duration',
        LOAD_SECONDS,
        '--purchase-supply',
        PURCHASE_SUPPLY,
        ...args,
        '--out',
        out,
      ],
      {
        env: { ...process.env, BENCH_START_SECONDS: String(scaled(30_000) / 1000) },
        timeout: scaled(150_000),
      },
    );
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
        '--connections',
        '2',
        '--rounds',
        '2',
        '--only',
        'health,purchase,purchaseWithDocuments',
      ]);
      expect(report.scenarios.map((s) => s.name)).toEqual(['health', 'purchase', 'purchaseWithDocuments']);
      const [health, purchase, withDocuments] = report.scenarios;
      expect(health!.endpoint.total).toBeGreaterThan(0);
      expect(health!.nodeCeiling.total).toBeGreaterThan(0);
      expect(health!.fastifyCeiling.total).toBeGreaterThan(0);
      // Two rounds each, the reported one among them.
      expect(health!.rounds).toHaveLength(2);
      expect(health!.rounds!.map((r) => r.ratioToNode)).toContain(health!.ratioToNode);
      expect(purchase!.rounds).toHaveLength(2);
      // Each purchase bought its own quote: none answered non-2xx, the supply did not run out.
      expect(purchase!.endpoint.total).toBeGreaterThan(0);
      expect(purchase!.endpoint).toMatchObject({ non2xx: 0, errors: 0, supplyExhausted: 0 });
      expect(purchase!.target).toMatch(/2xx\/s/);
      // Only the documents row waits for its server's worker to deliver every purchase's e-mail.
      expect(purchase!.endpoint.settleSeconds).toBeUndefined();
      expect(withDocuments!.endpoint).toMatchObject({ non2xx: 0, errors: 0, supplyExhausted: 0 });
      expect(withDocuments!.endpoint.settleSeconds).toBeGreaterThanOrEqual(0);
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
        '--connections',
        '2',
        '--change-supply',
        CHANGE_SUPPLY,
        '--only',
        'purchase,amendmentPreview,amendmentConfirm,cancellationConfirm',
      ]);
      const names = ['purchase', 'amendmentPreview', 'amendmentConfirm', 'cancellationConfirm'];
      expect(report.scenarios.map((s) => s.name)).toEqual(names);
      for (const scenario of report.scenarios) {
        // Every confirm confirmed its own preview: none refused, the supply did not run out.
        expect(scenario.endpoint.total, scenario.name).toBeGreaterThan(0);
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
        '--connections',
        '2',
        '--screening-supply',
        SCREENING_SUPPLY,
        '--only',
        names.join(','),
      ]);
      expect(report.scenarios.map((s) => s.name)).toEqual(names);
      for (const scenario of report.scenarios) {
        // Each answer, complete or refresh had its own prepared screening or quote: none refused, none left short.
        expect(scenario.endpoint.total, scenario.name).toBeGreaterThan(0);
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
      const { report, markdown } = await benchReport(['--sell-rate', '10', '--only', 'sustainedDelivery']);
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
