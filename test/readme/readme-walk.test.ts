import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '../helpers/child-server.js';
import { DIALECT } from '../helpers/database.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';
import { scaled } from '../helpers/time-scale.js';
import { freePort, readmeBlocks, unmatched } from './readme-blocks.js';

/** Blocks that cannot run in a test (npm install/start, the whole suite, the SDK until it lands). */
const MAX_SKIPS = 3;
const DELIMITER = '@@readme-walk-block@@';
const REPO = process.cwd();
const LINKED = ['package.json', 'node_modules', 'src', 'catalogue', 'tsconfig.json', 'test', 'sdk', 'docs'];

/** The walk's process group: bash and whatever it left running in the background (the receiver). */
let walkGroup: number | undefined;

function killWalk(): void {
  if (walkGroup === undefined) return;
  try {
    process.kill(-walkGroup, 'SIGKILL');
  } catch {
    // already gone
  }
}

function runBash(script: string, env: Record<string, string>, cwd: string) {
  return new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, ...env }, detached: true });
    walkGroup = child.pid;
    let stdout = '';
    let stderr = '';
    let code: number | null = null;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // A block that failed half-way may leave its background receiver holding the pipes.
    child.once('exit', (exitCode) => {
      code = exitCode;
      killWalk();
    });
    child.once('close', () => resolve({ stdout, stderr, code }));
  });
}

describe(`README.md's shell blocks run as written (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();
  let server: ChildServer | undefined;
  let work = '';
  beforeAll(async () => {
    // A known port, so the links the server writes (3-D Secure, screening) point back at it.
    server = await startChildServer({ ...database.env, DEMO_DATA: 'true', PORT: String(await freePort()) });
    // A folder that looks like the repository (its code, catalogue and node_modules linked), so the
    // files the walk writes (purchase.json, receiver.mjs, …) never land in the checkout.
    work = mkdtempSync(join(tmpdir(), 'readme-walk-'));
    for (const entry of LINKED) if (existsSync(join(REPO, entry))) symlinkSync(join(REPO, entry), join(work, entry));
  }, scaled(60_000));
  afterAll(() => {
    killWalk();
    server?.kill();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it(
    'every block, in order, shows what the server answers',
    async () => {
      const blocks = readmeBlocks(readFileSync(join(REPO, 'README.md'), 'utf8'));
      const skipped = blocks.filter((b) => b.skip);
      expect(skipped.length, `skipped blocks: ${skipped.map((b) => `line ${b.line}`).join(', ')}`).toBeLessThanOrEqual(
        MAX_SKIPS,
      );
      const run = blocks.filter((b) => !b.skip);
      expect(run.length).toBeGreaterThan(10);
      // One script, so variables carry from block to block as they do in a reader's shell.
      const script = run.map((b) => `echo; echo '${DELIMITER} ${b.index}'\n${b.code}\n`).join('');
      const result = await runBash(
        script,
        { ...database.env, BASE_URL: server?.url ?? '', RECEIVER_PORT: String(await freePort()) },
        work,
      );
      const outputs = new Map<number, string[]>();
      let current = -1;
      for (const line of result.stdout.split('\n')) {
        if (line.startsWith(DELIMITER)) {
          current = Number(line.slice(DELIMITER.length + 1));
          outputs.set(current, []);
        } else outputs.get(current)?.push(line);
      }
      const problems: string[] = [];
      for (const block of run) {
        const output = outputs.get(block.index);
        if (!output) {
          problems.push(
            `README.md:${block.line}: the block never ran (bash exited ${result.code}: ${result.stderr.slice(-2000)})`,
          );
          continue;
        }
        for (const missing of unmatched(block.expected, output))
          problems.push(`README.md:${block.line}: expected ${missing}\n  output:\n    ${output.join('\n    ')}`);
      }
      const errors = result.stderr
        .split('\n')
        .filter((l) => /jq: error|parse error|command not found|curl: \(/.test(l));
      for (const e of errors) problems.push(`stderr: ${e}`);
      expect(problems, problems.join('\n\n')).toEqual([]);
    },
    scaled(180_000),
  );
});
