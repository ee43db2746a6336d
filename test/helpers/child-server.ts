import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

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
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Never leave a half-started server behind.
      killGroup(child.pid);
      reject(new Error(`server did not start in 20 s: ${stderr}`));
    }, 20_000);
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
    void exited.then((code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
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

/** SIGKILL to the child's whole process group; nothing to do when it is already gone. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group has already exited
  }
}
