// `npm run bench:pricing`: the rating engine alone (no HTTP, no database), on the demo
// catalogue's brandau rate table: quotes priced per second as travellers and destinations grow.
// One "quote" is one priceQuote call pricing every single-trip plan, two basic options opted in.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { validateCatalogue } from '../src/catalogue/compile.js';
import { formatProblem } from '../src/catalogue/load.js';
import { priceQuote } from '../src/pricing/engine.js';
import type { PricingRequest, PricingTraveller } from '../src/pricing/request.js';

interface Options {
  seconds: string;
  out: string;
  catalogue: string;
}

const options = new Command()
  .name('bench:pricing')
  .option('--seconds <n>', 'measured seconds per case (after a warm-up of a quarter of it)', '3')
  .option('--out <dir>', 'where to write pricing.json and pricing.md', 'bench/results')
  .option('--catalogue <dir>', 'catalogue folder', 'catalogue')
  .parse()
  .opts<Options>();

const { catalogue, problems } = await validateCatalogue(options.catalogue);
if (!catalogue) throw new Error(`catalogue has problems: ${problems.map(formatProblem).join('; ')}`);
const brand = catalogue.brands.find((b) => b.brandCode === 'brandau');
if (!brand) throw new Error('demo catalogue has no brandau');
const rateTable = brand.rates;
const planCodes = brand.plans
  .filter((p) => p.quoteType === 'SINGLETRIP')
  .map((p) => p.code)
  .filter((c, i, all) => all.indexOf(c) === i);
// Ten destinations of different rating regions, in the order a customer might list them.
const regions = catalogue.destinations
  .filter((d) => d.code.length === 3 && !d.code.startsWith('X'))
  .map((d) => d.ratingRegion);
const tenRegions = regions
  .filter((r, i) => regions.indexOf(r) === i)
  .concat(regions)
  .slice(0, 10);

/** n travellers: two adults for every dependent (1 → one adult; 3 → 2 + 1; 9 → 6 + 3). */
function travellers(n: number): PricingTraveller[] {
  return Array.from({ length: n }, (_, i) => {
    const dependent = n > 1 && i % 3 === 2;
    return { guid: `t${i + 1}`, age: dependent ? 4 + i : 25 + ((i * 11) % 50), isDependent: dependent };
  });
}

function request(people: number, destinations: number): PricingRequest {
  return {
    rateTable,
    planCodes,
    quoteType: 'SINGLETRIP',
    travellers: travellers(people),
    regionCodes: destinations === 1 ? ['ASIA'] : tenRegions.slice(0, destinations),
    tripDurationDays: 14,
    homeCountryCode: 'AUS',
    homeProvinceCode: 'NSW',
    basicOptions: [
      { optionTypeCode: 'CRUISE', isOptedIn: true },
      { optionTypeCode: 'SNOWSPORTS', isOptedIn: true },
    ],
    quoteDate: new Date().toISOString().slice(0, 10),
  };
}

interface CaseResult {
  readonly travellers: number;
  readonly destinations: number;
  readonly plans: number;
  readonly plansPriced: number;
  readonly quotesPerSecond: number;
  readonly microsecondsPerQuote: number;
}

function measure(people: number, destinations: number): CaseResult {
  const req = request(people, destinations);
  // BASIC offers only CRUISE, so it is refused (OPTION_NOT_OFFERED) as the HTTP quote refuses it.
  const priced = priceQuote(req).filter((p) => p.outcome === 'PRICED').length;
  if (priced < 2) throw new Error(`only ${priced} plans priced: the benchmark would measure refusals`);
  const run = (ms: number) => {
    let n = 0;
    const end = performance.now() + ms;
    while (performance.now() < end) {
      for (let i = 0; i < 100; i++) priceQuote(req);
      n += 100;
    }
    return n;
  };
  const ms = Number(options.seconds) * 1000;
  run(ms / 4);
  const started = performance.now();
  const n = run(ms);
  const seconds = (performance.now() - started) / 1000;
  return {
    travellers: people,
    destinations,
    plans: planCodes.length,
    plansPriced: priced,
    quotesPerSecond: n / seconds,
    microsecondsPerQuote: (seconds * 1e6) / n,
  };
}

const CASES = [1, 10].flatMap((destinations) => [1, 3, 9].map((people) => ({ people, destinations })));
// Warm every case first, so the first one measured does not pay for the JIT alone.
for (const c of CASES) {
  const req = request(c.people, c.destinations);
  const end = performance.now() + 500;
  while (performance.now() < end) priceQuote(req);
}
const results: CaseResult[] = [];
for (const destinations of [1, 10]) {
  for (const people of [1, 3, 9]) {
    const result = measure(people, destinations);
    results.push(result);
    process.stderr.write(
      `${people} travellers, ${destinations} destinations: ${result.quotesPerSecond.toFixed(0)} quotes/s\n`,
    );
  }
}
const baseline = results[0]!.microsecondsPerQuote;
const report = {
  startedAt: new Date().toISOString(),
  machine: { cores: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
  rateTable: `${rateTable.brandCode} ${rateTable.version}`,
  planCodes,
  results: results.map((r) => ({ ...r, costVsOneTravellerOneDestination: r.microsecondsPerQuote / baseline })),
};
const markdown = [
  '# Pricing engine micro-benchmark',
  '',
  `${report.startedAt} · ${report.machine.cores} cores (${report.machine.cpu}) · Node ${report.machine.node} · rate table ${report.rateTable} · ` +
    `one quote = every single-trip plan (${planCodes.join(', ')}) asked for, CRUISE and SNOWSPORTS opted in (BASIC offers only CRUISE and is refused), 14 days`,
  '',
  '| travellers | destinations | quotes/s | µs per quote | cost × (1 traveller, 1 destination) |',
  '|---:|---:|---:|---:|---:|',
  ...report.results.map(
    (r) =>
      `| ${r.travellers} | ${r.destinations} | ${r.quotesPerSecond.toFixed(0)} | ${r.microsecondsPerQuote.toFixed(1)} | ${r.costVsOneTravellerOneDestination.toFixed(2)} |`,
  ),
  '',
].join('\n');
mkdirSync(options.out, { recursive: true });
writeFileSync(join(options.out, 'pricing.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(options.out, 'pricing.md'), markdown);
process.stdout.write(markdown);
