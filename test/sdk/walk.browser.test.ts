import { existsSync } from 'node:fs';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM } from '../helpers/console-browser.js';
import { DIALECT } from '../helpers/database.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { useSdkServer } from './support.js';

/**
 * The SDK in Chromium, bundled for the browser: the page and the API share one origin (the proxy
 * serves the page and forwards the rest), as the API sends no CORS headers.
 */
describe.skipIf(!existsSync(CHROMIUM))(`SDK in the browser (${DIALECT})`, () => {
  const getServer = useSdkServer();
  let proxy: FaultProxy;
  beforeAll(async () => {
    proxy = await startFaultProxy(getServer().url);
  });
  afterAll(async () => {
    await proxy.close();
  });

  it('walks a policy (purchase, amendment, cancellation) in Chromium with the browser bundle', async () => {
    const bundle = await build({
      entryPoints: [new URL('browser-walk.ts', import.meta.url).pathname],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      target: 'es2022',
    });
    const script = bundle.outputFiles[0]?.text ?? '';
    proxy.rule((request) => {
      if (request.path === '/sdk-walk.html')
        return { status: 200, headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>sdk</title>' };
      if (request.path === '/sdk-walk.js')
        return { status: 200, headers: { 'content-type': 'text/javascript' }, body: script };
      return 'pass';
    });
    const browser = await chromium.launch({ executablePath: CHROMIUM });
    try {
      const page = await browser.newPage();
      await page.goto(`${proxy.url}/sdk-walk.html`);
      // A string, evaluated in the page: the page's own module loader and location.
      const result: unknown = await page.evaluate('import("/sdk-walk.js").then((m) => m.walk(location.origin))');
      expect(result).toMatchObject({
        first: 'THREEDS_CHALLENGE_REQUIRED',
        paymentResult: 'APPROVED',
        amendment: ['PREVIEW', 'APPLIED', 'APPROVED'],
        status: 'Cancelled',
        pdf: '%PDF-',
        verified: { a: 1 },
      });
    } finally {
      await browser.close();
    }
  });
});
