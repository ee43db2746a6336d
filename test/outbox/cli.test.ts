import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { enqueue, findMessage } from '../../src/db/outbox/repository.js';
import { DIALECT } from '../helpers/database.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';
import { manualClock, testWorker } from './support.js';
import { scaled } from '../helpers/time-scale.js';

const run = promisify(execFile);

describe(`documents failed / retry commands (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();
  const cli = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'documents', ...args], {
      env: { ...process.env, ...database.env, LOG_LEVEL: 'silent' },
    });

  it(
    'lists a FAILED message and makes it PENDING again',
    async () => {
      const { db } = database;
      const time = manualClock(new Date(Date.now() - 60_000).toISOString());
      await enqueue(db, {
        key: 'policy-documents:P1:1',
        kind: 'mail',
        payload: { to: 'x@example.test' },
        at: time.iso(),
      });
      const failing = testWorker(
        db,
        time.clock,
        { mail: () => Promise.reject(new TypeError('x@example.test')) },
        {
          maxAttempts: 1,
        },
      );
      await failing.runOnce();
      expect((await findMessage(db, 'policy-documents:P1:1'))?.state).toBe('FAILED');

      const { stdout } = await cli('failed');
      expect(stdout.split('\n')).toEqual([
        'key\tkind\tattempts\tlast error\tcreated',
        `policy-documents:P1:1\tmail\t1\tTypeError\t${time.iso()}`,
        '',
      ]);

      expect((await cli('retry', 'policy-documents:P1:1')).stdout).toBe('Pending again: policy-documents:P1:1\n');
      expect(await findMessage(db, 'policy-documents:P1:1')).toMatchObject({ state: 'PENDING', attempts: 0 });
      await expect(cli('retry', 'no-such-key')).rejects.toMatchObject({ code: 1 });

      // Due now (the real clock): a worker delivers it.
      const seen: string[] = [];
      const worker = testWorker(db, () => new Date(), { mail: (m) => Promise.resolve(void seen.push(m.key)) });
      expect(await worker.runOnce()).toBe(1);
      expect(seen).toEqual(['policy-documents:P1:1']);
      expect((await cli('failed')).stdout).toBe('key\tkind\tattempts\tlast error\tcreated\n');
    },
    scaled(60_000),
  );
});
