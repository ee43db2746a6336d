import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DIALECT } from '../helpers/database.js';
import { useSdkServer } from './support.js';

/** The SDK's quick start (sdk/README.md, README) buys a policy as written. */
describe(`SDK: sdk/examples/quick-start.ts (${DIALECT})`, () => {
  const getServer = useSdkServer();

  it('prints one JSON line: APPROVED, a policy number, a price', async () => {
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'sdk/examples/quick-start.ts'], {
      cwd: new URL('../../', import.meta.url).pathname,
      env: { ...process.env, BASE_URL: getServer().url },
    });
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      paymentResult: 'APPROVED',
      policyNumber: expect.any(String) as unknown,
      price: expect.any(Number) as unknown,
    });
  });
});
