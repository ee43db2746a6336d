import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const COMMON: Options = { allErrors: true, verbose: true, useDefaults: true, strict: false, removeAdditional: false };

/**
 * Two validators: bodies are JSON and must carry the right JSON types (no coercion, so a
 * string where a number belongs is a 400); path and query values are text and are coerced.
 */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodyAjv = addFormats(new Ajv({ ...COMMON, coerceTypes: false }));
  const textAjv = addFormats(new Ajv({ ...COMMON, coerceTypes: 'array' }));
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);
}
