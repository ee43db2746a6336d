import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { DIALECT } from '../helpers/database.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';
import { issue, issueRequest } from '../policies/fixtures.js';
import { scaled } from '../helpers/time-scale.js';

interface Worker {
  readonly ready: Promise<void>;
  readonly numbers: Promise<string[]>;
  go(): void;
}

/** A worker process (policy-issue-worker.ts) that issues `count` policies when told to go. */
function startWorker(env: NodeJS.ProcessEnv, count: number, prefix: string): Worker {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/process/policy-issue-worker.ts', String(count), prefix],
    {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const failed = exited.then((code) => Promise.reject(new Error(`worker exited with ${code}: ${stderr}`)));
  failed.catch(() => undefined);
  const next = () => Promise.race([new Promise<string>((resolve) => lines.once('line', resolve)), failed]);
  const ready = next().then((line) => {
    if (line !== 'ready') throw new Error(`worker said ${line}`);
  });
  return {
    ready,
    numbers: ready.then(next).then((line) => JSON.parse(line) as string[]),
    go: () => child.stdin.end('go\n'),
  };
}

/** Counter values of `numbers` (the 7 digits after prefix, country and year). */
function sequences(numbers: string[], prefix: string): number[] {
  return numbers.map((n) => {
    const match = new RegExp(`^${prefix}AU26(\\d{7})$`).exec(n);
    if (!match) throw new Error(`unexpected policy number ${n}`);
    return Number(match[1]);
  });
}

const oneToFifty = Array.from({ length: 50 }, (_, i) => i + 1);

describe(`policy numbers under concurrency (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();

  it('50 issuances at once on separate connections get 50 distinct sequential numbers', async () => {
    // PostgreSQL: five pools of their own. SQLite: one connection per process is the engine's
    // model (the next test covers several processes), so all 50 share the test's connection.
    const pools: Db[] =
      DIALECT === 'postgres' ? Array.from({ length: 5 }, () => connectDatabase(database.database)) : [database.db];
    try {
      const plan = { ...issueRequest().plan, policyNumberPrefix: 'PP' };
      const issued = await Promise.all(oneToFifty.map((i) => issue(pools[i % pools.length]!, issueRequest({ plan }))));
      const numbers = issued.map((p) => p.policyNumber);
      expect(new Set(numbers).size).toBe(50);
      expect(sequences(numbers, 'PP').sort((a, b) => a - b)).toEqual(oneToFifty);
      expect(new Set(issued.map((p) => p.policyDetailNumber)).size).toBe(50);
    } finally {
      if (pools[0] !== database.db) await Promise.all(pools.map((pool) => pool.destroy()));
    }
  });

  it(
    '50 issuances from three processes at once get 50 distinct sequential numbers',
    async () => {
      const env = { ...process.env, ...database.env, LOG_LEVEL: 'silent' };
      // Three processes keep the suite light on a shared machine; each runs its own pool.
      const workers = [17, 17, 16].map((count) => startWorker(env, count, 'XP'));
      // Every process is connected before any issues: the 50 transactions really overlap.
      await Promise.all(workers.map((w) => w.ready));
      workers.forEach((w) => w.go());
      const numbers = (await Promise.all(workers.map((w) => w.numbers))).flat();
      expect(numbers).toHaveLength(50);
      expect(new Set(numbers).size).toBe(50);
      expect(sequences(numbers, 'XP').sort((a, b) => a - b)).toEqual(oneToFifty);
      const counter = await database.db
        .selectFrom('policy_number_counter')
        .select('last_value')
        .where('prefix', '=', 'XP')
        .executeTakeFirstOrThrow();
      expect(counter.last_value).toBe(50);
      const stored = await database.db
        .selectFrom('policy_header')
        .select('policy_number')
        .where('policy_number', 'like', 'XP%')
        .execute();
      expect(stored).toHaveLength(50);
    },
    scaled(60_000),
  );

  it('refuses a second policy with the same number even if a counter were wrong', async () => {
    const first = await issue(
      database.db,
      issueRequest({ plan: { ...issueRequest().plan, policyNumberPrefix: 'UQ' } }),
    );
    await database.db.updateTable('policy_number_counter').set({ last_value: 0 }).where('prefix', '=', 'UQ').execute();
    await expect(
      issue(database.db, issueRequest({ plan: { ...issueRequest().plan, policyNumberPrefix: 'UQ' } })),
    ).rejects.toThrow();
    const rows = await database.db
      .selectFrom('policy_header')
      .select('policy_number')
      .where('policy_number', '=', first.policyNumber)
      .execute();
    expect(rows).toHaveLength(1);
  });
});
