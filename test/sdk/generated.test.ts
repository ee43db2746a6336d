import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { generateSdkTypes } from '../../scripts/sdk-types.js';

const root = new URL('../../', import.meta.url);

describe('SDK: generated types and the strict build', () => {
  it('sdk/src/generated/openapi.ts is what docs/openapi.json generates (run `npm run sdk:generate`)', async () => {
    const document = JSON.parse(await readFile(new URL('docs/openapi.json', root), 'utf8')) as object;
    const committed = await readFile(new URL('sdk/src/generated/openapi.ts', root), 'utf8');
    expect(committed).toBe(await generateSdkTypes(document));
  });

  it('the package version is the API version', async () => {
    const document = JSON.parse(await readFile(new URL('docs/openapi.json', root), 'utf8')) as {
      info: { version: string };
    };
    const pkg = JSON.parse(await readFile(new URL('sdk/package.json', root), 'utf8')) as { version: string };
    expect(pkg.version).toBe(document.info.version);
  });

  it('compiles under tsc --strict with DOM and ES2022 only (no Node types)', async () => {
    const tsc = new URL('node_modules/typescript/bin/tsc', root).pathname;
    const run = promisify(execFile);
    await expect(
      run(process.execPath, [tsc, '-p', 'sdk/tsconfig.json', '--noEmit'], { cwd: root.pathname }),
    ).resolves.toBeTruthy();
  });
});
