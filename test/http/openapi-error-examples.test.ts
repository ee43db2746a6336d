import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';

/**
 * Each documented error answer shows a real refusal of its operation: an example for every error
 * status, none the same as another status's of the operation, every code one the server's source
 * writes, and an operation's own 400 naming the property at fault.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- walking a JSON document

function sourceText(dir: string): string {
  let text = '';
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) text += sourceText(path);
    else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) text += readFileSync(path, 'utf8');
  }
  return text;
}

/** The examples of an answer's JSON body (`example`, or each named one of `examples`). */
function examplesOf(response: Json, document: Json): unknown[] | undefined {
  const resolved: Json = response.$ref
    ? document.components.responses[String(response.$ref).split('/').pop()!]
    : response;
  const media = resolved.content?.['application/json'];
  if (!media) return undefined;
  if (media.example !== undefined) return [media.example as unknown];
  if (media.examples) return Object.values(media.examples as Json).map((e: Json) => e.value as unknown);
  return [];
}

/** A code as the source writes it: a literal, or a kind's code from a template (`${kind}_NOT_FOUND`). */
const writtenIn = (source: string, code: string) =>
  source.includes(`'${code}'`) || source.includes(`}_${code.split('_').slice(1).join('_')}\``);

const codesOf = (example: Json): string[] =>
  example.validation ? (example.validation.errors as Json[]).map((e) => e.code as string) : [example.error as string];

describe('error examples in the OpenAPI document', () => {
  const t = useTestApp();

  it('are real, specific to each operation and status', async () => {
    const document = (await t().app.inject({ method: 'GET', url: '/openapi.json' })).json<Json>();
    const source = sourceText('src');
    const problems: string[] = [];
    let counted = 0;
    for (const [path, item] of Object.entries(document.paths as Json)) {
      for (const [method, operation] of Object.entries(item as Json)) {
        const seen = new Map<string, string>();
        for (const [status, response] of Object.entries(operation.responses as Json)) {
          if (Number(status) < 400) continue;
          const examples = examplesOf(response as Json, document);
          const where = `${method.toUpperCase()} ${path} ${status}`;
          if (examples === undefined) continue;
          if (examples.length === 0) {
            problems.push(`${where}: no example`);
            continue;
          }
          counted += examples.length;
          const key = JSON.stringify(examples);
          if (seen.has(key)) problems.push(`${where}: the same example as ${seen.get(key)}`);
          seen.set(key, status);
          for (const example of examples as Json[]) {
            for (const code of codesOf(example))
              if (!writtenIn(source, code)) problems.push(`${where}: code ${code} is written nowhere in src/`);
            // An operation's own 400 names the property at fault; a malformed URL (no parameter of its own to get wrong) has none.
            const own400 = status === '400' && !(response as Json).$ref && example.validation;
            const named = (e: Json) => typeof e.property === 'string' || e.code === 'MALFORMED_URL';
            if (own400 && !(example.validation.errors as Json[]).every(named))
              problems.push(`${where}: a 400 of the operation's own names no property`);
          }
        }
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
    expect(counted).toBeGreaterThan(400);
  });

  it('name several examples of one status by their code', async () => {
    const document = (await t().app.inject({ method: 'GET', url: '/openapi.json' })).json<Json>();
    const conflicts =
      document.paths['/quotes/v2/{brandCode}/purchase'].post.responses['409'].content['application/json'];
    expect(Object.keys(conflicts.examples as Json)).toEqual(['QUOTE_REFERRED', 'PURCHASE_IN_PROGRESS']);
    const notFound = document.paths['/policies/v1/{brandCode}/policies/{policyNumber}'].get.responses['404'];
    expect(codesOf(examplesOf(notFound, document)![0] as Json)).toEqual(['POLICY_NOT_FOUND']);
  });
});
