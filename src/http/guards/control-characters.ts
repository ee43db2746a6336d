import type { FastifyRequest, preValidationHookHandler } from 'fastify';
import { InvalidInput } from '../../kernel/errors.js';
import { propertyPathsHolding } from '../../kernel/notifications/property-path.js';

/**
 * Control characters no field of the contract may hold: names, addresses, codes, tokens and
 * declarations are single-line text, so C0 controls (tab and line breaks included) and DEL are
 * refused everywhere in the body, the query and the path. PostgreSQL cannot store NUL in text at
 * all (the audit's 500s), SQLite would; refusing them up front answers both engines alike.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
/** HTTP itself allows a horizontal tab inside a header value (RFC 9110 §5.5); every other control is refused. */
// eslint-disable-next-line no-control-regex -- as above
const HEADER_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;
/** The request headers the application reads, stores or compares. */
const READ_HEADERS = ['authorization', 'content-type', 'idempotency-key', 'if-none-match', 'user-agent'] as const;

export type ControlCharacterPlace = 'body' | 'query' | 'path' | 'header';

/** A control character in a request. The value is never echoed (it holds the character). */
export class ControlCharacterRefused extends InvalidInput {
  constructor(property: string, place: ControlCharacterPlace) {
    super(
      'CONTROL_CHARACTER_REFUSED',
      `'${property}' holds a control character (U+0000–U+001F or U+007F), which no field accepts.`,
      { property, tokens: { in: place } },
    );
  }
}

/**
 * The JSON path (`quote.input.policyHolders[0].firstName`) of the first string or property name
 * holding a control character; `''` for a root string.
 */
export function findControlCharacter(value: unknown): string | undefined {
  return propertyPathsHolding(value, (text) => CONTROL.test(text), { firstOnly: true })[0];
}

function headerProblem(request: FastifyRequest): ControlCharacterRefused | undefined {
  for (const name of READ_HEADERS) {
    const value = request.headers[name];
    const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
    if (values.some((v) => HEADER_CONTROL.test(v))) return new ControlCharacterRefused(name, 'header');
  }
  return undefined;
}

/** The first control character in the request, as the error that refuses it. */
export function controlCharacterProblem(request: FastifyRequest): ControlCharacterRefused | undefined {
  const header = headerProblem(request);
  if (header) return header;
  const param = findControlCharacter(request.params);
  if (param !== undefined) return new ControlCharacterRefused(param, 'path');
  const query = findControlCharacter(request.query);
  if (query !== undefined) return new ControlCharacterRefused(query, 'query');
  const body = findControlCharacter(request.body);
  if (body !== undefined) return new ControlCharacterRefused(body === '' ? 'body' : body, 'body');
  return undefined;
}

/**
 * Refuses a request holding a control character (400 `CONTROL_CHARACTER_REFUSED`, naming where;
 * the token endpoint answers `invalid_request`). Registered app-wide as `preValidation`: after the
 * body is parsed, before schema validation, an Idempotency-Key claim or anything that moves money.
 */
export const refuseControlCharacters: preValidationHookHandler = (request, _reply, done) => {
  done(controlCharacterProblem(request));
};
