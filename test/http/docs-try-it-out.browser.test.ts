import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startChildServer, type ChildServer } from '../helpers/child-server.js';
import { CHROMIUM, hasChromium, launchChromium } from '../helpers/console-browser.js';
import { DIALECT } from '../helpers/database.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';
import { scaled } from '../helpers/time-scale.js';

if (!hasChromium) console.warn(`/docs browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

/**
 * /docs "Try it out" in Chromium on a fresh staging server (demo data), as a reader uses it: sign
 * in with the token operation as filled in, Authorize with its access_token, then Execute a handful
 * of operations of every kind without typing anything. test/http/openapi-examples.test.ts sends
 * every example with fetch; this proves Swagger UI fills them in and sends them as that test does.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking a JSON document

/** CI artefacts (gitignored). */
const SCREENSHOTS = 'artifacts/screenshots';
const TOKEN_OPERATION = '#operations-auth-issueToken';

/** One of each kind: a path parameter read, a JSON body, a preview, a header parameter, a month. */
const OPERATIONS = [
  { id: 'quotes-getQuote', method: 'get', path: '/quotes/v2/{brandCode}/quote/{quoteId}' },
  { id: 'quotes-updateQuote', method: 'put', path: '/quotes/v2/{brandCode}/quote/{quoteId}' },
  { id: 'policies-getPolicySummary', method: 'get', path: '/policies/v1/{brandCode}/policies/{policyNumber}' },
  {
    id: 'policy_changes-previewAmendment',
    method: 'post',
    path: '/policies/v1/{brandCode}/policies/{policyNumber}/amendments',
  },
  { id: 'purchase-purchaseQuote', method: 'post', path: '/quotes/v2/{brandCode}/purchase' },
  { id: 'statements-getStatement', method: 'get', path: '/partners/v1/{brandCode}/statements/{month}' },
] as const;

describe.skipIf(!hasChromium)(`/docs "Try it out" in a real browser (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();
  let server: ChildServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  /** The document the page loaded: the examples it fills in. */
  let document: Json;

  beforeAll(async () => {
    // The document's `servers` is where Swagger UI sends requests: the server's real address.
    const port = String(await freePort());
    const origin = `http://127.0.0.1:${port}`;
    server = await startChildServer({ ...database.env, DEMO_DATA: 'true', PORT: port, PUBLIC_BASE_URL: origin });
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(scaled(10_000));
    const loaded = page.waitForResponse((answer) => answer.url() === `${origin}/docs/json`, {
      timeout: scaled(60_000),
    });
    await page.goto(`${origin}/docs`);
    document = (await (await loaded).json()) as Json;
    // The first read of the document makes the demo objects; the operations render after it.
    await page.locator(TOKEN_OPERATION).waitFor({ timeout: scaled(60_000) });
  }, scaled(120_000));
  afterAll(async () => {
    await browser?.close();
    server?.kill();
  });

  /** Expands an operation and presses Try it out: its fields show what its example fills in. */
  async function tryItOut(operation: Locator): Promise<void> {
    await operation.locator('.opblock-summary').click();
    await operation.locator('.try-out__btn').click();
  }

  /** Presses Execute; the status and body of the response Swagger UI shows. */
  async function execute(operation: Locator): Promise<{ status: string; body: string }> {
    await operation.locator('.execute').click();
    const live = operation.locator('.responses-table.live-responses-table');
    const status = live.locator('tbody .response-col_status');
    await status.waitFor({ timeout: scaled(20_000) });
    return {
      status: (await status.innerText()).trim(),
      body: await live.locator('tbody .response-col_description').innerText(),
    };
  }

  /** The operation from its summary down to the response shown (its documented responses left out). */
  async function screenshotExecuted(operation: Locator, name: string): Promise<void> {
    const top = await operation.boundingBox();
    const bottom = await operation.locator('.live-responses-table').boundingBox();
    const scrollY = await page.evaluate<number>('window.scrollY');
    await page.screenshot({
      path: `${SCREENSHOTS}/${name}.png`,
      fullPage: true,
      clip: { x: top!.x, y: top!.y + scrollY, width: top!.width, height: bottom!.y + bottom!.height - top!.y },
    });
  }

  /** The success statuses the document gives the operation. */
  const documentedSuccesses = (operation: Json) =>
    Object.keys(operation.responses as Json).filter((code) => /^2\d\d$/.test(code));

  /** A parameter's field: a text box, or a list for an enum. */
  const parameterField = (operation: Locator, name: string) =>
    operation.locator(`tr[data-param-name="${name}"] :is(input, select)`);

  it('the token operation is filled in from the example, and Execute answers 200 with an access_token', async () => {
    const operation = page.locator(TOKEN_OPERATION);
    const form = document.paths['/users/{brandCode}/token'].post.requestBody.content[
      'application/x-www-form-urlencoded'
    ].example as Record<string, string>;
    await tryItOut(operation);
    // Each field of the form body shows the example's value (the password grant's fields, the rest empty).
    await expect.poll(() => operation.locator('select').nth(1).inputValue()).toBe(form.grant_type);
    for (const field of ['client_id', 'username', 'password', 'customerInterfaceId', 'userTypeId'])
      expect(await operation.locator(`input[placeholder="${field}"]`).inputValue(), field).toBe(form[field]);
    for (const field of ['client_secret', 'refresh_token'])
      expect(await operation.locator(`input[placeholder="${field}"]`).inputValue(), field).toBe('');
    const { status, body } = await execute(operation);
    expect(status, body).toBe('200');
    const token = /"access_token":\s*"([^"]+)"/.exec(body)?.[1];
    expect(token, body).toBeTruthy();
    await screenshotExecuted(operation, 'docs-try-it-out-token');

    // Authorize with it, as a reader pastes it.
    await page.locator('.auth-wrapper .authorize').click();
    const dialog = page.locator('.dialog-ux .modal-ux');
    await dialog.locator('#auth-bearer-value').fill(token!);
    await dialog.getByRole('button', { name: 'Apply credentials' }).click();
    await dialog.locator('.btn-done').click();
    await expect.poll(() => page.locator('.auth-wrapper .authorize.locked').count()).toBe(1);
  });

  for (const { id, method, path } of OPERATIONS)
    it(`${method.toUpperCase()} ${path}: Execute without typing answers its documented success`, async () => {
      const described = document.paths[path][method] as Json;
      const operation = page.locator(`#operations-${id}`);
      await tryItOut(operation);
      // What the example fills in is really there: each parameter, and a JSON body as written.
      for (const parameter of (described.parameters ?? []) as Json[])
        if (parameter.example !== undefined)
          expect(await parameterField(operation, parameter.name as string).inputValue(), parameter.name).toBe(
            String(parameter.example),
          );
      const json = described.requestBody?.content?.['application/json'] as Json | undefined;
      if (json?.example !== undefined)
        expect(JSON.parse(await operation.locator('textarea.body-param__text').inputValue())).toEqual(json.example);
      const { status, body } = await execute(operation);
      expect(documentedSuccesses(described), `${status}: ${body.slice(0, 600)}`).toContain(status);
    });
});
