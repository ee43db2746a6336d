import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  measureOf,
  medianRound,
  summaryOf,
  toMarkdown,
  type BenchReport,
  type RoundResult,
} from '../../bench/report.js';

const load = (requestsPerSecond: number, okPerSecond = requestsPerSecond) => ({
  requestsPerSecond,
  okPerSecond,
  p50Ms: 1,
  p99Ms: 2,
  non2xx: 0,
  errors: 0,
  total: requestsPerSecond,
});
const round = (endpoint: number, fastify: number, node: number): RoundResult => ({
  endpoint: load(endpoint),
  fastifyCeiling: load(fastify),
  nodeCeiling: load(node),
  ratioToFastify: endpoint / fastify,
  ratioToNode: endpoint / node,
});

describe('benchmark rounds', () => {
  it('reports the round whose judged number is the median, whole', () => {
    const rounds = [round(40, 100, 100), round(90, 100, 300), round(50, 100, 100)];
    // Judged by ÷ node:http: 0.4, 0.3, 0.5 → the first round.
    expect(medianRound(rounds, measureOf({ kind: 'ratio', ceiling: 'node', ratio: 0.7 }))).toBe(rounds[0]);
    // Judged by ÷ Fastify: 0.4, 0.9, 0.5 → the third.
    expect(medianRound(rounds, measureOf({ kind: 'ratio', ceiling: 'fastify', ratio: 0.5 }))).toBe(rounds[2]);
    // Judged by 2xx/s: 40, 90, 50 → the third.
    expect(medianRound(rounds, measureOf({ kind: 'rate', perSecond: { sqlite: 800, postgres: 300 } }))).toBe(rounds[2]);
    // No target: ÷ node:http.
    expect(medianRound(rounds, measureOf(undefined))).toBe(rounds[0]);
  });

  it('takes the lower middle of an even count, and a member of the rounds always', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 9 }), (values) => {
        const rounds = values.map((v) => round(v, 1, 1));
        const chosen = medianRound(rounds, (r) => r.ratioToNode);
        expect(rounds).toContain(chosen);
        const below = values.filter((v) => v < chosen.ratioToNode).length;
        const notAbove = values.filter((v) => v <= chosen.ratioToNode).length;
        // At most half the rounds lie below it, and at least half are not above it.
        expect(below).toBeLessThanOrEqual(Math.floor((values.length - 1) / 2));
        expect(notAbove).toBeGreaterThanOrEqual(Math.ceil(values.length / 2));
      }),
    );
    expect(() => medianRound([], () => 0)).toThrow(/no rounds/);
  });

  it('shows the spread over the rounds in the Markdown table', () => {
    const rounds = [round(40, 100, 100), round(45, 90, 100)];
    const report: BenchReport = {
      startedAt: '2026-11-23T00:00:00.000Z',
      machine: { cores: 2, cpu: 'test', node: 'v20', database: 'SQLite' },
      settings: { connections: 50, durationSeconds: 10, rounds: 2 },
      scenarios: [{ name: 'health', description: 'h', ...rounds[0]!, rounds: rounds.map(summaryOf) }],
    };
    const markdown = toMarkdown(report);
    expect(markdown).toContain('2 rounds (each row is the median round)');
    expect(markdown).toContain('÷ Fastify 40–50 %, ÷ node:http 40–45 %, 2xx/s 40–45, p99 2–2 ms');
  });
});
