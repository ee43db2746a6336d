import { describe, expect, it } from 'vitest';
import { AnswerChecker, type Exchange } from '../helpers/contract/answer-check.js';

/** The contract check of every answer (test/helpers/contract/) on a document small enough to read. */

const envelope = { $ref: '#/components/schemas/ErrorResponse' };
const DOCUMENT = {
  openapi: '3.1.0',
  paths: {
    '/things/{thingId}': {
      get: {
        operationId: 'getThing',
        parameters: [{ name: 'view', in: 'query', required: true, schema: { type: 'string' } }],
        responses: {
          200: {
            description: 'ok',
            headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          409: {
            description: 'busy',
            headers: {
              'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
              'Retry-After': { schema: { type: 'integer', minimum: 0 } },
            },
            content: { 'application/json': { schema: envelope } },
          },
        },
      },
      post: {
        operationId: 'postThing',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
        responses: { 204: { description: 'done' } },
      },
      // A route a test added: no operationId.
      put: { responses: { 200: { description: 'whatever' } } },
    },
  },
  components: {
    headers: { 'X-Request-Id': { required: true, schema: { type: 'string' } } },
    schemas: {
      ErrorResponse: {
        type: 'object',
        required: ['validation'],
        properties: {
          validation: { type: 'object', required: ['isValid'], properties: { isValid: { const: false } } },
        },
      },
      Thing: {
        type: 'object',
        required: ['items'],
        properties: { items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } } },
      },
      Pet: {
        oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
        discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat' } },
      },
      Cat: { type: 'object', required: ['kind'], properties: { kind: { const: 'cat' } } },
      Dog: { type: 'object', required: ['kind'], properties: { kind: { const: 'dog' } } },
    },
  },
};

const checker = new AnswerChecker(DOCUMENT);
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const answer = (overrides: Partial<Exchange>): Exchange => ({
  method: 'GET',
  url: '/things/1?view=full',
  requestHeaders: {},
  status: 200,
  headers: { 'x-request-id': 'r1', 'content-type': 'application/json; charset=utf-8' },
  body: json({ items: [{ id: 'a' }] }),
  ...overrides,
});
const problemsOf = (exchange: Exchange) => checker.check(exchange)?.problems ?? [];

describe('the contract check of an answer', () => {
  it('passes an answer the document describes', () => {
    expect(checker.check(answer({}))).toBeUndefined();
  });

  it('names the operation, the request and the status of a mismatch', () => {
    expect(checker.check(answer({ status: 418 }))).toEqual({
      where: 'getThing (GET /things/1) answered 418',
      problems: ['status 418 is not documented (documented: 200, 409)'],
    });
  });

  it('finds a content type the status does not document, and a body where none is documented', () => {
    expect(problemsOf(answer({ headers: { 'x-request-id': 'r1', 'content-type': 'application/pdf' } }))).toEqual([
      "content type 'application/pdf' is not documented (documented: application/json)",
    ]);
    const post = { method: 'POST', requestHeaders: { 'content-length': '2' }, status: 204, headers: {} };
    expect(problemsOf(answer({ ...post, body: Buffer.alloc(0) }))).toEqual([]);
    expect(problemsOf(answer(post))).toContain('a body is sent but none is documented');
  });

  it('gives the path into the body of a schema violation', () => {
    expect(problemsOf(answer({ body: json({ items: [{ id: 'a' }, { id: 7 }] }) }))).toEqual([
      'body/items/1/id: must be string (type: "string")',
    ]);
  });

  it('wants the required headers, documented headers only, each matching its schema', () => {
    expect(problemsOf(answer({ headers: { 'content-type': 'application/json' } }))).toEqual([
      'required header x-request-id is missing',
    ]);
    expect(
      problemsOf(answer({ headers: { 'x-request-id': 'r1', 'content-type': 'application/json', etag: '"1"' } })),
    ).toEqual(['header etag is sent but not documented']);
    const busy = { status: 409, body: json({ validation: { isValid: false } }) };
    const headers = { 'x-request-id': 'r1', 'content-type': 'application/json' };
    expect(problemsOf(answer({ ...busy, headers: { ...headers, 'retry-after': '2' } }))).toEqual([]);
    expect(problemsOf(answer({ ...busy, headers: { ...headers, 'retry-after': 'soon' } }))).toEqual([
      'header retry-after: must be integer (type: "integer")',
    ]);
  });

  it('finds a request the server accepted although the document calls it incomplete', () => {
    expect(problemsOf(answer({ url: '/things/1' }))).toEqual([
      'the query parameter view is required by the document, yet a request without it was accepted',
    ]);
    expect(problemsOf(answer({ method: 'POST', status: 204, body: Buffer.alloc(0), headers: {} }))).toEqual([
      'the request body is required by the document, yet a request without one was accepted',
    ]);
    // A refusal is the server agreeing with the document.
    expect(
      problemsOf(answer({ url: '/things/1', status: 409, body: json({ validation: { isValid: false } }) })),
    ).toEqual([]);
  });

  it('holds a request that names no operation to the common envelope; skips exempt paths and test routes', () => {
    const unknown = { url: '/nowhere', status: 404 };
    expect(problemsOf(answer({ ...unknown, body: json({ validation: { isValid: false } }) }))).toEqual([]);
    expect(problemsOf(answer({ ...unknown, body: json({ error: 'not_found' }) }))).toEqual([
      'body: must have required property \'validation\' (missingProperty: "validation")',
    ]);
    expect(problemsOf(answer({ url: '/nowhere', status: 200 }))).toEqual([
      'a 200 for a request that names no documented operation',
    ]);
    expect(
      checker.check(answer({ url: '/docs/index.html', headers: { 'content-type': 'text/html' } })),
    ).toBeUndefined();
    expect(checker.check(answer({ method: 'PUT', body: Buffer.from('anything') }))).toBeUndefined();
  });

  it('refuses a document whose discriminator maps a value to a branch of another value', () => {
    const wrong = structuredClone(DOCUMENT);
    wrong.components.schemas.Pet.discriminator.mapping = { cat: '#/components/schemas/Dog' };
    expect(() => new AnswerChecker(wrong)).toThrow(/maps 'cat' to #\/components\/schemas\/Dog/);
  });
});
