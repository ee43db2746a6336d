/**
 * A separate process that issues policies, for the concurrency test: `node --import tsx
 * test/process/policy-issue-worker.ts <count> <prefix>` with the database in the environment (as the
 * server reads it). Prints `ready` once connected and waits for a line on standard input, so
 * that the test starts every worker at once; then prints the policy numbers it got as JSON.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { loadConfig } from '../../src/config/config.js';
import { connectDatabase } from '../../src/db/connect.js';
import { issue, issueRequest } from '../policies/fixtures.js';

const count = Number(process.argv[2] ?? '10');
const prefix = process.argv[3] ?? 'CC';

const db = connectDatabase(loadConfig().database);
try {
  await db.selectFrom('policy_header').select('id').limit(1).execute();
  process.stdout.write('ready\n');
  await once(createInterface({ input: process.stdin }), 'line');
  const plan = { ...issueRequest().plan, policyNumberPrefix: prefix };
  const issued = await Promise.all(Array.from({ length: count }, () => issue(db, issueRequest({ plan }))));
  process.stdout.write(`${JSON.stringify(issued.map((p) => p.policyNumber))}\n`);
} finally {
  await db.destroy();
}
