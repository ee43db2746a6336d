import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, PartnerClient } from '../../sdk/src/index.js';

interface Document {
  paths: Record<string, Record<string, { operationId?: string }>>;
}

/** The partner's operations: products, quotes, policies, partners, and the token endpoint. */
const PARTNER_PATH = /^\/(products|quotes|policies|partners)\/|^\/users\/\{brandCode\}\/token$/;
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

async function partnerOperations(): Promise<Map<string, string>> {
  const document = JSON.parse(await readFile(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as Document;
  const found = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths)) {
    if (!PARTNER_PATH.test(path)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (METHODS.has(method)) found.set(required(operation.operationId, path), `${method.toUpperCase()} ${path}`);
    }
  }
  return found;
}

function required(value: string | undefined, path: string): string {
  if (value === undefined) throw new Error(`an operation of ${path} has no operationId`);
  return value;
}

/** The value at a dotted member path of the client (`quotes.screening.start`). */
function memberOf(client: PartnerClient, member: string): unknown {
  let value: unknown = client;
  for (const name of member.split('.')) value = (value as Record<string, unknown> | undefined)?.[name];
  return value;
}

describe('SDK: the operation table covers the OpenAPI document', () => {
  it('every partner operation of docs/openapi.json has an entry, with the same method and path', async () => {
    const table = Object.fromEntries(
      Object.entries(OPERATIONS).map(([id, operation]) => [id, `${operation.method} ${operation.path}`]),
    );
    expect(table).toEqual(Object.fromEntries(await partnerOperations()));
  });

  it('every entry names a method of the client, and no two entries the same one', () => {
    const client = new PartnerClient({ baseUrl: 'http://127.0.0.1:9', brand: 'brandau' });
    const members = Object.values(OPERATIONS).map((operation) => operation.member);
    for (const member of members) expect(typeof memberOf(client, member), member).toBe('function');
    expect(new Set(members).size).toBe(members.length);
  });
});
