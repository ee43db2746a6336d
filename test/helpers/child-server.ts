import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { scaled } from './time-scale.js';

export interface ChildServer {
  readonly url: string;
  readonly process: ChildProcess;
  /** Every JSON log line the server has written so far. */
  readonly logs: Record<string, unknown>[];
  /** Resolves with the exit code once the process has ended. */
  readonly exited: Promise<number | null>;
  /** Sends SIGKILL if the process is still running (always call in a finally). */
  kill(): void;
}

/** How long a child server may take to serve before the test calls its start broken. */
export const SERVER_START_MS = scaled(20_000);

/**
 * A child server's outbox timing on this machine's scale: an attempt's timeout, and a lease three
 * times as long. A live process the machine holds up keeps its claim and its attempts do not time
 * out (either would send a copy the test counts); a dead process's lease runs out in seconds.
 */
export const OUTBOX_TIMING = {
  WEBHOOK_TIMEOUT_MS: String(scaled(1_000)),
  OUTBOX_LEASE_SECONDS: String(Math.ceil(scaled(3_000) / 1000)),
};

/**
 * A port free a moment ago, for a child that must know its address before it serves (PUBLIC_BASE_URL
 * names it in the OpenAPI document's `servers`, where /docs sends its requests).
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts `cli.ts serve` as a real child process on a free port and waits until it serves. */
export async function startChildServer(
  env: Record<string, string>,
  command: readonly string[] = [process.execPath, '--import', 'tsx', 'src/cli.ts', 'serve'],
): Promise<ChildServer> {
  const [program = process.execPath, ...args] = command;
  const child = spawn(program, args, {
    // Request limits off unless the test sets them: process tests send bursts.
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', DEMO_DATA: 'false', RATE_LIMITS: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so `kill` also reaches grandchildren (npm → sh → tsx → node).
    detached: true,
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  keepOutput(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Never leave a half-started server behind.
      killGroup(child.pid);
      reject(new Error(`server ${child.pid} did not start in ${SERVER_START_MS} ms: ${stderr}`));
    }, SERVER_START_MS);
    createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (entry.msg === 'serving' && typeof entry.url === 'string') {
          clearTimeout(timer);
          resolve(entry.url);
        }
      } catch {
        // not a log line
      }
    });
    void exited.then((code) => reject(new Error(`server ${child.pid} exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    process: child,
    logs,
    exited,
    kill: () => {
      killGroup(child.pid);
    },
  };
}

/**
 * With TEST_CHILD_LOG_DIR set, every child server's output (its JSON log, then stderr) is kept in
 * `<dir>/child-<pid>.log`, to read what a server did in a red process test (README, "Tests").
 */
function keepOutput(child: ChildProcess): void {
  const dir = process.env.TEST_CHILD_LOG_DIR;
  if (!dir || child.pid === undefined) return;
  mkdirSync(dir, { recursive: true });
  const file = createWriteStream(join(dir, `child-${child.pid}.log`));
  child.stdout?.pipe(file, { end: false });
  child.stderr?.pipe(file, { end: false });
  child.once('close', () => file.end());
}

/** SIGKILL to the child's whole process group; nothing to do when it is already gone. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group has already exited
  }
}
