import type { FastifyRequest, preValidationHookHandler } from 'fastify';
import { InvalidInput } from '../../kernel/errors.js';
import { NestingLimitExceeded, propertyPathsHolding } from '../../kernel/notifications/property-path.js';

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

/** How deep a request's JSON may nest (the contract's bodies need under 10 levels). */
export const MAX_BODY_DEPTH = 32;

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
 * Ill-formed Unicode: a lone UTF-16 surrogate (`"\ud800"` in JSON), which is no character.
 * PostgreSQL refuses such JSON, SQLite would store it: refused up front, both engines alike.
 */
export class IllFormedTextRefused extends InvalidInput {
  constructor(property: string, place: ControlCharacterPlace) {
    super(
      'ILL_FORMED_TEXT_REFUSED',
      `'${property}' holds a lone UTF-16 surrogate (ill-formed Unicode), which no field accepts.`,
      { property, tokens: { in: place } },
    );
  }
}

/** A body nested deeper than any request of the contract: refused before anything reads it recursively. */
export class BodyNestedTooDeep extends InvalidInput {
  constructor(property: string) {
    super('BODY_TOO_DEEP', `The body nests deeper than ${MAX_BODY_DEPTH} levels (at '${property}').`, {
      property,
    });
  }
}

type TextProblem = typeof ControlCharacterRefused | typeof IllFormedTextRefused;

/**
 * The first string or property name (JSON path, `''` for a root string) holding a control
 * character or ill-formed Unicode, and which; with `maxDepth`, a deeper container throws
 * NestingLimitExceeded.
 */
function findRefusedText(
  value: unknown,
  maxDepth?: number,
): { readonly path: string; readonly refusal: TextProblem } | undefined {
  let refusal: TextProblem = ControlCharacterRefused;
  const refused = (text: string): boolean => {
    if (CONTROL.test(text)) refusal = ControlCharacterRefused;
    else if (!text.isWellFormed()) refusal = IllFormedTextRefused;
    else return false;
    return true;
  };
  const [path] = propertyPathsHolding(value, refused, {
    firstOnly: true,
    ...(maxDepth === undefined ? {} : { maxDepth }),
  });
  return path === undefined ? undefined : { path, refusal };
}

function headerProblem(request: FastifyRequest): InvalidInput | undefined {
  for (const name of READ_HEADERS) {
    const value = request.headers[name];
    const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
    if (values.some((v) => HEADER_CONTROL.test(v))) return new ControlCharacterRefused(name, 'header');
  }
  return undefined;
}

function bodyProblem(body: unknown): InvalidInput | undefined {
  try {
    const found = findRefusedText(body, MAX_BODY_DEPTH);
    return found && new found.refusal(found.path === '' ? 'body' : found.path, 'body');
  } catch (error) {
    if (error instanceof NestingLimitExceeded) return new BodyNestedTooDeep(error.path || 'body');
    throw error;
  }
}

/** The first control character or ill-formed text in the request, or a body nested too deep, as the error that refuses it. */
export function controlCharacterProblem(request: FastifyRequest): InvalidInput | undefined {
  const header = headerProblem(request);
  if (header) return header;
  for (const [value, place] of [
    [request.params, 'path'],
    [request.query, 'query'],
  ] as const) {
    const found = findRefusedText(value);
    if (found) return new found.refusal(found.path, place);
  }
  return bodyProblem(request.body);
}

/**
 * Refuses a request holding a control character (400 `CONTROL_CHARACTER_REFUSED`, naming where;
 * the token endpoint answers `invalid_request`). Registered app-wide as `preValidation`: after the
 * body is parsed, before schema validation, an Idempotency-Key claim or anything that moves money.
 */
export const refuseControlCharacters: preValidationHookHandler = (request, _reply, done) => {
  done(controlCharacterProblem(request));
};
