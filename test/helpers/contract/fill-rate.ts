import { readFileSync } from 'node:fs';

/**
 * Which response fields of the contract came back filled: each answer is walked beside its
 * response schema in the OpenAPI document (recursively, through `$ref`, arrays and `anyOf`), and
 * every property the schema names is recorded as `Owner.property` (the component schema that
 * declares it, e.g. `Currency.id`), filled when at least one occurrence carried a value that is not
 * absent, null or "". A property under an absent parent is recorded too (empty), so the walk counts
 * every field the schemas name. Pure: the test feeds it answers.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

export class FillRate {
  private readonly named = new Set<string>();
  private readonly filled = new Set<string>();

  constructor(private readonly document: Json) {}

  /** Records the fields of `body`, the 200 answer of `operationId`. */
  record(operationId: string, body: unknown): void {
    const schema = this.responseSchema(operationId);
    this.walk(schema, body, operationId, new Set());
  }

  get fields(): readonly string[] {
    return [...this.named].sort();
  }

  get empty(): readonly string[] {
    return this.fields.filter((f) => !this.filled.has(f));
  }

  get rate(): number {
    return this.named.size === 0 ? 0 : (this.named.size - this.empty.length) / this.named.size;
  }

  private responseSchema(operationId: string): Json {
    for (const item of Object.values(this.document.paths as Json))
      for (const operation of Object.values(item as Json))
        if (isObject(operation) && operation.operationId === operationId) {
          const content = (operation.responses as Json)['200'] as Json;
          return ((content.content as Json)['application/json'] as Json).schema as Json;
        }
    throw new Error(`no operation ${operationId} in the document`);
  }

  private resolve(schema: Json): { schema: Json; name?: string } {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return { schema };
    const name = ref.replace('#/components/schemas/', '');
    const target = ((this.document.components as Json).schemas as Json)[name];
    if (!isObject(target)) throw new Error(`unresolvable ${ref}`);
    return { schema: target, name };
  }

  private walk(raw: Json, value: unknown, owner: string, path: ReadonlySet<string>): void {
    const { schema, name } = this.resolve(raw);
    if (name !== undefined && path.has(name)) return; // a recursive schema: counted once
    const here = name !== undefined ? new Set([...path, name]) : path;
    const self = name ?? owner;
    for (const branch of [...asList(schema.anyOf), ...asList(schema.oneOf), ...asList(schema.allOf)])
      this.walk(branch, value, self, here);
    if (isObject(schema.items)) {
      const items = Array.isArray(value) && value.length > 0 ? value : [undefined];
      for (const item of items) this.walk(schema.items, item, self, here);
    }
    if (!isObject(schema.properties)) return;
    for (const [property, sub] of Object.entries(schema.properties)) {
      if (!isObject(sub)) continue;
      const key = `${self}.${property}`;
      const v = isObject(value) ? value[property] : undefined;
      this.named.add(key);
      if (!isEmpty(v)) this.filled.add(key);
      this.walk(sub, v, key, here);
    }
  }
}

const asList = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

/**
 * The fields empty by design, with their reasons: the table between the markers in
 * docs/api-contract.md ("Fields empty by design"), so the test and the document hold one list.
 */
export function emptyByDesign(file = 'docs/api-contract.md'): Map<string, string> {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf('<!-- empty-by-design:start -->');
  const end = text.indexOf('<!-- empty-by-design:end -->');
  if (start < 0 || end < start) throw new Error(`${file}: the empty-by-design markers are missing`);
  const list = new Map<string, string>();
  for (const line of text.slice(start, end).split('\n')) {
    const cells = /^\|\s*`([^`]+)`\s*\|(.+)\|\s*$/.exec(line);
    if (cells?.[1] && cells[2]) list.set(cells[1], cells[2].trim());
  }
  return list;
}
