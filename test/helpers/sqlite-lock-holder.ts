import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { scaled } from './time-scale.js';

/** Another process holding a SQLite file's write lock (an operator's CLI, a backup, a second server). */
export interface SqliteLockHolder {
  /** Rolls the holder's transaction back, closes its connection and waits for the process to end. */
  release(): Promise<void>;
}

// Plain CommonJS for `node -e`: the same better-sqlite3 the app resolves. The lock is held until
// the test closes the child's stdin (or the test process dies, which closes it too).
const HOLDER_SOURCE = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2]);
db.exec('begin immediate');
process.stdout.write('locked\\n');
process.stdin.on('end', () => { db.exec('rollback'); db.close(); process.exit(0); });
process.stdin.resume();
`;

/** Spawns a process that takes the write lock of the SQLite file at `path` (BEGIN IMMEDIATE) and holds it until released. */
export async function holdSqliteWriteLock(path: string): Promise<SqliteLockHolder> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const child = spawn(process.execPath, ['-e', HOLDER_SOURCE, driver, path], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the lock holder did not take the lock')), scaled(10_000));
      createInterface({ input: child.stdout }).once('line', (line) => {
        clearTimeout(timer);
        if (line === 'locked') resolve();
        else reject(new Error(`the lock holder said ${line}`));
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the lock holder exited with ${code}: ${stderr}`));
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    async release() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`the lock holder exited with ${code}: ${stderr}`);
    },
  };
}
