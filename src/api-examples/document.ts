import type { OperationExample } from './catalogue.js';

/**
 * Writes request examples into an OpenAPI document: each operation's parameters get `example`
 * (what /docs "Try it out" fills in) and its body's media type gets `example` in place of any
 * `examples` a schema carried. Operations without an entry are left as they are (the examples test
 * fails for them).
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `METHOD path`, the key of an operation in the catalogue. */
export const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

export function writeExamples<D extends { paths: Record<string, Record<string, unknown>> }>(
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
      for (const media of Object.values(content)) {
        if (!isObject(media)) continue;
        media.example = example.body;
        Reflect.deleteProperty(media, 'examples');
      }
    }
  }
  return document;
}
