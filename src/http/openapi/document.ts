import { isDeepStrictEqual } from 'node:util';

/**
 * Post-processing of the generated OpenAPI document: every subschema with a `title` (the TypeBox
 * schemas of the contract's named types carry one) becomes `components.schemas[title]` and is
 * replaced by a `$ref`, so Quote and the error envelope are described once, and generated clients
 * get named types.
 */

type Schema = Record<string, unknown>;

/** Where the schema titled `title` is in the document (a discriminator's mapping names it so). */
export const schemaRef = (title: string) => `#/components/schemas/${title}`;
export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas?: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
}

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keywords whose values are subschemas (a map of them, a list of them, or one). */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SCHEMA_ONE = ['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else'];

/** What makes two uses the same type: a use's own wording and @fastify/swagger moving a body's examples to its media object do not. */
const essence = ({ description: _d, examples: _e, ...rest }: Schema): Schema => rest;

class SchemaNamer {
  readonly components: Record<string, Schema> = {};

  name(schema: unknown): unknown {
    if (!isObject(schema)) return schema;
    const out: Schema = { ...schema };
    for (const key of SCHEMA_MAPS) {
      const map = out[key];
      if (isObject(map)) out[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, this.name(v)]));
    }
    for (const key of SCHEMA_LISTS) {
      const list = out[key];
      if (Array.isArray(list)) out[key] = list.map((v) => this.name(v));
    }
    for (const key of SCHEMA_ONE) if (isObject(out[key])) out[key] = this.name(out[key]);
    const title = out.title;
    if (typeof title !== 'string') return out;
    if (!/^[A-Za-z0-9._-]+$/.test(title)) throw new Error(`Schema title '${title}' is not a component name.`);
    const known = this.components[title];
    if (known === undefined) this.components[title] = out;
    else if (!isDeepStrictEqual(essence(known), essence(out))) {
      throw new Error(`Two different schemas are titled '${title}'; give one another title.`);
    } else if (known.examples === undefined && out.examples !== undefined) known.examples = out.examples;
    const ref: Schema = { $ref: schemaRef(title) };
    // OpenAPI 3.1 lets a $ref carry its own description: the use's wording wins over the type's.
    const description = out.description;
    if (typeof description === 'string' && description !== this.components[title]?.description) {
      ref.description = description;
    }
    return ref;
  }
}

/** Calls `visit` on every place of an operation that holds a schema (parameters, bodies, headers). */
function eachSchemaHolder(operation: Schema, visit: (holder: Schema) => void): void {
  const media = (content: unknown) => {
    if (isObject(content)) for (const m of Object.values(content)) if (isObject(m)) visit(m);
  };
  for (const parameter of (operation.parameters as unknown[] | undefined) ?? [])
    if (isObject(parameter)) visit(parameter);
  if (isObject(operation.requestBody)) media(operation.requestBody.content);
  if (isObject(operation.responses)) {
    for (const response of Object.values(operation.responses)) {
      if (!isObject(response)) continue;
      media(response.content);
      if (isObject(response.headers)) for (const h of Object.values(response.headers)) if (isObject(h)) visit(h);
    }
  }
}

export function nameSchemas(document: OpenApiDocument): OpenApiDocument {
  const namer = new SchemaNamer();
  const rename = (holder: Schema) => {
    if (holder.schema !== undefined) holder.schema = namer.name(holder.schema);
  };
  // OpenAPI 3.1 `webhooks` (the events partners receive) are operations too.
  const webhooks = isObject(document.webhooks) ? Object.values(document.webhooks) : [];
  for (const pathItem of [...Object.values(document.paths), ...webhooks]) {
    if (!isObject(pathItem)) continue;
    for (const operation of Object.values(pathItem)) if (isObject(operation)) eachSchemaHolder(operation, rename);
  }
  const sorted = Object.fromEntries(Object.entries(namer.components).sort(([a], [b]) => a.localeCompare(b)));
  document.components = { ...document.components, schemas: { ...document.components.schemas, ...sorted } };
  return document;
}
