// `npm run bench:seed -- --count 1000000`: inserts N policies into the configured database
// (SQLITE_PATH or DATABASE_URL, as the server reads them) for scale benchmarks. Lives in bench/
// and not in the product CLI: it writes made-up policies, needs the dev-only cli-progress, and
// must never be one typo away in production.
import { SingleBar, Presets } from 'cli-progress';
import { Command } from 'commander';
import { loadConfig } from '../src/config/config.js';
import { connectDatabase } from '../src/db/connect.js';
import { prepareDatabase } from '../src/server.js';
import { seedPolicies } from './seed/policies.js';

interface Options {
  count: string;
  batch: string;
  seed: string;
}

const options = new Command()
  .name('bench:seed')
  .description('Insert N made-up policies (each with its purchased quote) for scale benchmarks.')
  .option('--count <n>', 'policies to insert', '1000000')
  .option('--batch <n>', 'policies per transaction (at most 1000)', '1000')
  .option('--seed <n>', 'seed of the variety (brands, partners, plans, dates, parties)', '1')
  .parse()
  .opts<Options>();

const count = Number(options.count);
if (!Number.isSafeInteger(count) || count < 1) {
  process.stderr.write(`--count must be a positive integer, got ${options.count}\n`);
  process.exit(2);
}

const config = loadConfig();
if (config.env === 'production') {
  process.stderr.write('refusing to seed made-up policies into a production database\n');
  process.exit(2);
}
const db = connectDatabase(config.database);
try {
  // Same preparation as a server start: migrations, then demo partners when DEMO_DATA is on.
  await prepareDatabase({ config, db, clock: () => new Date() });
  const bar = new SingleBar(
    {
      format: 'policies {bar} {percentage}% | {value}/{total} | {rate}/s | eta {eta_formatted}',
      noTTYOutput: true,
      notTTYSchedule: 15_000,
    },
    Presets.shades_classic,
  );
  const started = Date.now();
  bar.start(count, 0, { rate: 0 });
  await seedPolicies(db, {
    count,
    batchSize: Number(options.batch),
    seed: Number(options.seed),
    onProgress: (done) => bar.update(done, { rate: Math.round(done / Math.max(0.001, (Date.now() - started) / 1000)) }),
  });
  bar.stop();
  process.stdout.write(`${count} policies in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
} finally {
  await db.destroy();
}
