import type { OperationExample } from './catalogue.js';

/**
 * Writes request examples into an OpenAPI document: each operation's parameters get `example`
 * (what /docs "Try it out" fills in) and its body's media type gets `example` in place of any
 * `examples` a schema carried; a form body's fields get theirs as well (writeFormFields).
 * Operations without an entry are left as they are (the examples test fails for them).
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `METHOD path`, the key of an operation in the catalogue. */
export const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** Bodies Swagger UI renders as one field per property, each filled from the property's schema, not the media type's example. */
const FORM_MEDIA_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

type ExampleDocument = { paths: Record<string, Record<string, unknown>>; components?: unknown };

export function writeExamples<D extends ExampleDocument>(
  document: D,
  examples: Readonly<Record<string, OperationExample>>,
): D {
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(pathItem)) {
      const example = examples[operationKey(method, path)];
      if (!isObject(operation) || example === undefined) continue;
      for (const parameter of (operation.parameters as unknown[] | undefined) ?? []) {
        if (!isObject(parameter) || typeof parameter.name !== 'string') continue;
        const value = example.parameters?.[parameter.name];
        if (value === undefined) continue;
        parameter.example = value;
        Reflect.deleteProperty(parameter, 'examples');
      }
      const content = isObject(operation.requestBody) ? operation.requestBody.content : undefined;
      if (example.body === undefined || !isObject(content)) continue;
      for (const [mediaType, media] of Object.entries(content)) {
        if (!isObject(media)) continue;
        media.example = example.body;
        Reflect.deleteProperty(media, 'examples');
        if (FORM_MEDIA_TYPES.has(mediaType)) writeFormFields(document, media.schema, example.body);
      }
    }
  }
  return document;
}

/**
 * A form body's example as its fields' `examples`, which Swagger UI fills the form with. A field the
 * example leaves out gets an empty one: Swagger UI would otherwise fill in "string" and send it.
 */
function writeFormFields(document: ExampleDocument, schema: unknown, body: unknown): void {
  const properties = resolved(document, schema)?.properties;
  if (!isObject(body) || !isObject(properties)) return;
  for (const [name, property] of Object.entries(properties))
    if (isObject(property)) property.examples = [body[name] ?? ''];
}

/** A schema, or the component a local `$ref` names. */
function resolved(document: ExampleDocument, schema: unknown): Json | undefined {
  if (!isObject(schema)) return undefined;
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/')) return schema;
  const schemas = isObject(document.components) ? document.components.schemas : undefined;
  const named = isObject(schemas) ? schemas[ref.slice('#/components/schemas/'.length)] : undefined;
  return isObject(named) ? named : undefined;
}
