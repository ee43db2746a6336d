import { spawn } from 'node:child_process';
import { closeSync, copyFileSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS } from '../src/http/server/node-flags.js';

export interface ServerProcess {
  readonly url: string;
  /** CPU seconds (user + system) the process has used so far; undefined where /proc is missing. */
  cpuSeconds(): number | undefined;
  stop(): Promise<void>;
}

// Linux reports process times in USER_HZ ticks, 100 per second on every mainstream kernel.
const TICKS_PER_SECOND = 100;

/** utime + stime of `pid` from /proc (fields 14 and 15 after the parenthesised command name). */
export function cpuSecondsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * Starts a Node process running `args` with its output going to a file (as a production log
 * would), and waits for the line that announces where it listens. `keepLogAt` receives a copy of
 * that file when the process is stopped.
 */
export async function startProcess(
  args: string[],
  env: Record<string, string>,
  addressOf: (line: string) => string | undefined,
  keepLogAt?: string,
): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-log-'));
  const logFile = join(dir, 'out.log');
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const state = { ended: false };
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      state.ended = true;
      resolve();
    }),
  );
  const cleanup = () => {
    if (keepLogAt) copyFileSync(logFile, keepLogAt);
    rmSync(dir, { recursive: true, force: true });
  };
  // 30 s on an idle machine; BENCH_START_SECONDS lengthens it where the machine is loaded (the smoke test's scale).
  const deadline = Date.now() + Number(process.env.BENCH_START_SECONDS ?? 30) * 1000;
  for (;;) {
    const output = readFileSync(logFile, 'utf8');
    const url = output.split('\n').map(addressOf).find(Boolean);
    if (url) {
      return {
        url,
        cpuSeconds: () => cpuSecondsOf(child.pid),
        async stop() {
          if (!state.ended) child.kill('SIGTERM');
          await exited;
          cleanup();
        },
      };
    }
    if (state.ended || Date.now() > deadline) {
      if (!state.ended) child.kill('SIGKILL');
      cleanup();
      throw new Error(`process did not start listening: ${output.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The outbox worker's pause between passes (OUTBOX_INTERVAL_MS) of a bench server: without a
 * worker, its maximum (an hour: no pass during a run, so no certificate is rendered nor mailed, no
 * event published, and every row measures its request alone); with one, its minimum, so the worker
 * delivers as fast as one process can (the default 1 s pass of 100 messages caps it at 100/s).
 */
export const OUTBOX_INTERVAL_MS = { withoutWorker: '3600000', withWorker: '10' } as const;

/**
 * The API server (`cli.ts serve`) on a free port, with the flags production runs it with;
 * `nodeArgs` (e.g. `--cpu-prof`) come after them, so an experiment's flag overrides.
 * `BENCH_KEEP_LOG=<path>` keeps its output (the request log, traces such as `--trace-gc`).
 * `outboxWorker`: whether its outbox worker delivers (documents, events; see above).
 */
export function startApiServer(
  env: Record<string, string>,
  nodeArgs: string[] = [],
  { outboxWorker = false }: { outboxWorker?: boolean } = {},
): Promise<ServerProcess> {
  return startProcess(
    [...SERVER_NODE_FLAGS, ...nodeArgs, '--import', 'tsx', 'src/cli.ts', 'serve'],
    // The bench hammers one partner far past any request limit: limits off (a run may turn them on).
    // Sign-ins count before they verify, so 50 parallel sign-ins of one login would be refused past
    // the lockout limit: the token row measures the sign-in itself, with room for every connection.
    {
      PORT: '0',
      SHUTDOWN_DRAIN_MS: '0',
      RATE_LIMITS: 'false',
      LOGIN_USER_FAILURE_LIMIT: '1000',
      LOGIN_IP_FAILURE_LIMIT: '1000',
      // Test events and redeliveries are rows of the bench: their budgets per partner out of the way.
      WEBHOOK_TEST_EVENTS_PER_PARTNER_PER_HOUR: '100000',
      WEBHOOK_REDELIVERIES_PER_PARTNER_PER_HOUR: '1000000',
      OUTBOX_INTERVAL_MS: outboxWorker ? OUTBOX_INTERVAL_MS.withWorker : OUTBOX_INTERVAL_MS.withoutWorker,
      ...env,
    },
    (line) => {
      if (!line.includes('"serving"')) return undefined;
      return (JSON.parse(line) as { url?: string }).url;
    },
    process.env.BENCH_KEEP_LOG || undefined,
  );
}

/** A ceiling server answering every request with `bodyFile`'s bytes. */
export function startCeilingServer(
  kind: 'fastify' | 'node',
  bodyFile: string,
  contentType: string,
): Promise<ServerProcess> {
  return startProcess(['--import', 'tsx', 'bench/ceiling-server.ts', kind, bodyFile, contentType], {}, (line) => {
    if (!line.startsWith('{"port"')) return undefined;
    return `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`;
  });
}
