import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationExamples } from '../../src/api-examples/catalogue.js';
import { FIXED_EXAMPLE_VALUES } from '../../src/api-examples/values.js';
import { startChildServer, type ChildServer } from '../helpers/child-server.js';
import { DIALECT } from '../helpers/database.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';
import { scaled } from '../helpers/time-scale.js';

/**
 * /docs "Try it out" as a reader uses it on a fresh staging server (`npm start`, demo data): the
 * document /docs loads is read, and every operation is sent with exactly the values its example
 * fills in (parameters, body, media type), in the catalogue's order, signed in with the token the
 * token endpoint's example gives. Each must answer one of its documented success statuses.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking a JSON document
interface Operation {
  readonly key: string;
  readonly method: string;
  readonly path: string;
  readonly operation: Json;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

function operationsOf(document: Json): Operation[] {
  const found: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Json))
    for (const method of METHODS)
      if ((item as Json)[method])
        found.push({ key: `${method.toUpperCase()} ${path}`, method, path, operation: item[method] });
  return found;
}

/** The request "Try it out" sends: each parameter's example in its place, the body's example in its media type. */
function requestOf({ method, path, operation }: Operation, token: string | undefined) {
  let url = path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const parameter of (operation.parameters ?? []) as Json[]) {
    const value = parameter.example ?? parameter.schema?.example;
    if (value === undefined) continue;
    if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
    else if (parameter.in === 'query') query.set(parameter.name, String(value));
    else if (parameter.in === 'header') headers[parameter.name] = String(value);
  }
  let body: string | undefined;
  const [mediaType, media] = Object.entries((operation.requestBody?.content ?? {}) as Json)[0] ?? [];
  if (mediaType !== undefined && media?.example !== undefined) {
    headers['content-type'] = mediaType;
    body =
      mediaType === 'application/x-www-form-urlencoded'
        ? new URLSearchParams(media.example as Record<string, string>).toString()
        : JSON.stringify(media.example);
  }
  if ((operation.security ?? []).length > 0 && token) headers.authorization = `Bearer ${token}`;
  const search = query.size > 0 ? `?${query.toString()}` : '';
  return { method: method.toUpperCase(), url: url + search, headers, body };
}

const successes = (operation: Json) =>
  Object.keys(operation.responses as Json)
    .map(Number)
    .filter((status) => status >= 200 && status < 400 && status !== 304);

describe(`every operation's example in /docs succeeds on a fresh demo server (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();
  let server: ChildServer | undefined;
  beforeAll(async () => {
    server = await startChildServer({ ...database.env, DEMO_DATA: 'true' });
  }, scaled(60_000));
  afterAll(() => server?.kill());

  /** Sends every operation's example from the document /docs loads now; the problems found. */
  async function tryItOut(base: string): Promise<string[]> {
    const read = await fetch(`${base}/docs/json`);
    expect(read.status).toBe(200);
    const operations = operationsOf((await read.json()) as Json);
    const catalogue = Object.keys(operationExamples(FIXED_EXAMPLE_VALUES));
    // Every operation has an example, and the catalogue names no operation that is gone.
    expect(operations.map((o) => o.key).sort()).toEqual([...catalogue].sort());
    const byKey = new Map(operations.map((o) => [o.key, o]));
    let token: string | undefined;
    const problems: string[] = [];
    for (const key of catalogue) {
      const operation = byKey.get(key)!;
      const request = requestOf(operation, token);
      const res = await fetch(base + request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
      });
      const text = await res.text();
      if (key === 'POST /users/{brandCode}/token' && res.status === 200)
        token = (JSON.parse(text) as { access_token: string }).access_token;
      if (!successes(operation.operation).includes(res.status))
        problems.push(`${key} → ${request.method} ${request.url}: ${res.status} ${text.slice(0, 400)}`);
    }
    return problems;
  }

  it(
    'sends each in order and gets a documented success',
    async () => {
      const problems = await tryItOut(server!.url);
      expect(problems, problems.join('\n')).toEqual([]);
    },
    scaled(120_000),
  );

  it(
    'after every example was used once, the document names fresh objects and all succeed again',
    async () => {
      const problems = await tryItOut(server!.url);
      expect(problems, problems.join('\n')).toEqual([]);
    },
    scaled(120_000),
  );

  it("names demo objects that exist, not the committed document's stable values", async () => {
    const document = (await (await fetch(`${server!.url}/openapi.json`)).json()) as Json;
    const live = Object.fromEntries(operationsOf(document).map((o) => [o.key, o.operation]));
    const parameter = (key: string, name: string) =>
      ((live[key]?.parameters ?? []) as Json[]).find((p) => p.name === name)?.example as unknown;
    const fixed = FIXED_EXAMPLE_VALUES;
    const quote = live['POST /quotes/v2/{brandCode}/quote']?.requestBody.content['application/json'].example;
    expect(quote.input.departureDate).not.toBe(fixed.trip.departureDate);
    expect(parameter('GET /quotes/v2/{brandCode}/quote/{quoteId}', 'quoteId')).not.toBe(fixed.quoteId);
    expect(parameter('GET /policies/v1/{brandCode}/policies/{policyNumber}', 'policyNumber')).not.toBe(
      fixed.policy.policyNumber,
    );
    expect(parameter('GET /partners/v1/{brandCode}/webhooks/{webhookId}', 'webhookId')).not.toBe(
      fixed.webhooks.webhookId,
    );
  });
});
