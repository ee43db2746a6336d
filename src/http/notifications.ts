import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { echoValue } from '../kernel/errors.js';
import type { Notification } from '../kernel/notifications/notification.js';

/** `/quote/input/policyHolders/0/firstName` → `quote.input.policyHolders[0].firstName`. */
export function jsonPointerToPath(pointer: string): string {
  let path = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(part) ? `[${part}]` : path ? `.${part}` : part;
  }
  return path;
}

const CODE_BY_KEYWORD: Record<string, string> = {
  required: 'FIELD_REQUIRED',
  type: 'INVALID_TYPE',
  enum: 'INVALID_VALUE',
  const: 'INVALID_VALUE',
  format: 'INVALID_FORMAT',
  pattern: 'INVALID_FORMAT',
  minimum: 'OUT_OF_RANGE',
  maximum: 'OUT_OF_RANGE',
  exclusiveMinimum: 'OUT_OF_RANGE',
  exclusiveMaximum: 'OUT_OF_RANGE',
  minLength: 'TOO_SHORT',
  maxLength: 'TOO_LONG',
  minItems: 'TOO_FEW_ITEMS',
  maxItems: 'TOO_MANY_ITEMS',
  additionalProperties: 'UNKNOWN_FIELD',
};

/** One Notification per schema violation, with the property as a path and the limits as tokens. */
export function schemaViolationToNotification(
  violation: FastifySchemaValidationError & { data?: unknown },
  options: { readonly echoValues: boolean } = { echoValues: true },
): Notification {
  const params: Record<string, unknown> = violation.params;
  let property = jsonPointerToPath(violation.instancePath);
  // A route that echoes no values names no unknown key either: the key is the client's text.
  const missing = params.missingProperty ?? (options.echoValues ? params.additionalProperty : undefined);
  if (typeof missing === 'string') property = property ? `${property}.${missing}` : missing;

  const tokens: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (key === 'missingProperty' || key === 'additionalProperty') continue;
    tokens[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  const notification: Notification = {
    code: CODE_BY_KEYWORD[violation.keyword] ?? 'INVALID_VALUE',
    message: `${property || 'body'} ${violation.message ?? 'is invalid'}`,
    property,
    tokens,
  };
  const echoed = violation.keyword === 'required' || !options.echoValues ? undefined : echoValue(violation.data);
  if (echoed !== undefined) notification.value = echoed;
  return notification;
}
