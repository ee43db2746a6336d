import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * Checks one HTTP exchange against the OpenAPI document, as a generated client would read it:
 * the status is documented for the operation (or a `default`), the content type is documented
 * for that status, the body matches that content's schema, every header the server sends is
 * documented (and matches its schema), the required ones are there; and when the server accepted
 * the request (2xx), the request had what the document requires (parameters, a body).
 * Pure: no app, no test framework; test/helpers/contract/taps.ts feeds it every answer.
 */

type Json = Record<string, unknown>;

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface Exchange {
  readonly method: string;
  /** Path and query as the client sent them. */
  readonly url: string;
  readonly requestHeaders: Readonly<Record<string, string | string[] | undefined>>;
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>;
  readonly body: Buffer;
}

/**
 * Paths that are no operation of the API and not in the document: browser pages and the
 * document itself. Every other path's answers are checked (an unknown path's 404 included).
 */
export const EXEMPT_PATHS: readonly RegExp[] = [
  /^\/$/, // the root page pointing a person to the document
  /^\/docs(\/|$)/, // Swagger UI, rendering the document
  /^\/openapi\.json$/, // the document itself
  /^\/sandbox\/3ds(\/|$)/, // the sandbox issuer's 3-D Secure pages (a cardholder's browser, staging only)
  /^\/sandbox\/mail(\/|$)/, // the staging sandbox mailbox pages
  /^\/webhooks\/stripe$/, // Stripe's webhook events (for Stripe, not partners; Stripe's format)
  /^\/console(\/|$)/, // the operators' console (pages for the insurer's people, not partners)
  /^\/stripe\/3ds\/return$/, // where Stripe sends a cardholder's browser after 3-D Secure (no partner page named)
];

/** Headers of HTTP itself rather than of the contract: the content type is checked against `content` instead. */
const TRANSPORT_HEADERS = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/** What a request that names no operation gets: the common envelope. */
const ERROR_ENVELOPE = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } };

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isJsonMedia = (type: string) => type === 'application/json' || type.endsWith('+json');

interface Route {
  readonly template: string;
  readonly pattern: RegExp;
  readonly literals: number;
  readonly item: Json;
}

function routeOf(template: string, item: Json): Route {
  const segments = template.split('/');
  const source = segments
    .map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return {
    template,
    pattern: new RegExp(`^${source}$`),
    literals: segments.filter((s) => !s.startsWith('{')).length,
    item,
  };
}

/** `ajv` cannot read a discriminator's `mapping`; the branches' `const` say the same, which `checkMappings` makes sure of. */
function forAjv(schemas: Json): Json {
  const text = JSON.stringify(schemas).replaceAll('"#/components/schemas/', '"urn:x-openapi:document#/$defs/');
  return JSON.parse(text, (key, value: unknown) => {
    if (key === 'discriminator' && isObject(value)) return { propertyName: value.propertyName };
    return value;
  }) as Json;
}

/** Each mapping entry of a discriminator must name a branch whose tag is that value. */
function checkMappings(schemas: Json): void {
  for (const [name, schema] of Object.entries(schemas)) {
    if (!isObject(schema) || !isObject(schema.discriminator)) continue;
    const { propertyName, mapping } = schema.discriminator as { propertyName: string; mapping?: Json };
    for (const [tag, target] of Object.entries(mapping ?? {})) {
      const branch = schemas[String(target).replace('#/components/schemas/', '')];
      const property = isObject(branch) && isObject(branch.properties) ? branch.properties[propertyName] : undefined;
      const values = isObject(property) ? (property.enum ?? [property.const]) : [];
      if (!Array.isArray(values) || values.length !== 1 || values[0] !== tag)
        throw new Error(
          `${name}: discriminator maps '${tag}' to ${String(target)}, whose ${propertyName} is not '${tag}'`,
        );
    }
  }
}

/** A reason for one exchange; `where` names the operation, status and request. */
export interface Mismatch {
  readonly where: string;
  readonly problems: readonly string[];
}

export class AnswerChecker {
  private readonly routes: Route[];
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<unknown, ValidateFunction>();

  constructor(private readonly document: Json) {
    const paths = isObject(document.paths) ? document.paths : {};
    this.routes = Object.entries(paths)
      .filter((entry): entry is [string, Json] => isObject(entry[1]))
      .map(([template, item]) => routeOf(template, item))
      .sort((a, b) => b.literals - a.literals);
    const components = isObject(document.components) ? document.components : {};
    const schemas = isObject(components.schemas) ? components.schemas : {};
    checkMappings(schemas);
    this.ajv = addFormats(new Ajv2020({ allErrors: true, strict: true, discriminator: true }));
    // OpenAPI's own annotation keywords.
    this.ajv.addVocabulary(['example', 'xml', 'externalDocs']);
    this.ajv.addSchema({ $id: 'urn:x-openapi:document', $defs: forAjv(schemas) });
  }

  /** What is wrong with the exchange; undefined when it agrees with the document (or is exempt). */
  check(exchange: Exchange): Mismatch | undefined {
    const [path = '', query = ''] = exchange.url.split('?', 2);
    if (EXEMPT_PATHS.some((p) => p.test(path))) return undefined;
    const method = exchange.method.toLowerCase();
    const route = this.routes.find((r) => r.pattern.test(path) && isObject(r.item[method === 'head' ? 'get' : method]));
    const operation = route?.item[method === 'head' ? 'get' : method] as Json | undefined;
    // Every operation of the API has an operationId (Spectral's operation-operationId keeps it so): one
    // without is a route a test added to its app, not part of the contract.
    if (operation !== undefined && typeof operation.operationId !== 'string') return undefined;
    const name = typeof operation?.operationId === 'string' ? operation.operationId : 'no operation';
    const where = `${name} (${exchange.method} ${path}) answered ${String(exchange.status)}`;
    const problems =
      operation === undefined
        ? this.noOperation(exchange)
        : [
            ...this.answerProblems(operation, exchange, method === 'head'),
            ...this.requestProblems(operation, exchange, query),
          ];
    return problems.length > 0 ? { where, problems } : undefined;
  }

  /** A request that names no operation (an unknown path or method) gets the common error envelope. */
  private noOperation(exchange: Exchange): string[] {
    if (exchange.status < 400) return [`a ${String(exchange.status)} for a request that names no documented operation`];
    return this.bodyProblems(ERROR_ENVELOPE, exchange);
  }

  private answerProblems(operation: Json, exchange: Exchange, head: boolean): string[] {
    const responses = isObject(operation.responses) ? operation.responses : {};
    const status = String(exchange.status);
    const documented = responses[status] ?? responses[`${status[0] ?? ''}XX`] ?? responses.default;
    if (!isObject(documented))
      return [`status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
    const response = this.resolve(documented);
    return [...this.headerProblems(response, exchange), ...(head ? [] : this.bodyProblems(response.content, exchange))];
  }

  private headerProblems(response: Json, exchange: Exchange): string[] {
    const problems: string[] = [];
    const documented = new Map<string, Json>();
    for (const [name, header] of Object.entries(isObject(response.headers) ? response.headers : {}))
      if (isObject(header)) documented.set(name.toLowerCase(), this.resolve(header));
    for (const [name, header] of documented) {
      const value = exchange.headers[name];
      if (value === undefined) {
        if (header.required === true) problems.push(`required header ${name} is missing`);
        continue;
      }
      if (isObject(header.schema)) {
        const text = Array.isArray(value) ? value.join(', ') : String(value);
        const errors = this.validate(
          { type: 'object', properties: { [name]: header.schema } },
          { [name]: headerValue(header.schema, text) },
        );
        problems.push(...errors.map((e) => `header ${name}: ${describe(e)}`));
      }
    }
    for (const name of Object.keys(exchange.headers)) {
      if (!TRANSPORT_HEADERS.has(name) && !documented.has(name))
        problems.push(`header ${name} is sent but not documented`);
    }
    return problems;
  }

  private bodyProblems(content: unknown, exchange: Exchange): string[] {
    const media = isObject(content) ? content : {};
    const empty = exchange.body.length === 0;
    if (Object.keys(media).length === 0) return empty ? [] : ['a body is sent but none is documented'];
    if (empty) return exchange.status === 204 || exchange.status === 304 ? [] : ['no body, but one is documented'];
    const sent =
      String(exchange.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim()
        .toLowerCase() ?? '';
    const type = Object.keys(media).find((t) => mediaMatches(t, sent));
    if (type === undefined)
      return [`content type '${sent}' is not documented (documented: ${Object.keys(media).join(', ')})`];
    const entry = media[type];
    if (!isJsonMedia(sent) || !isObject(entry) || !isObject(entry.schema)) return [];
    let body: unknown;
    try {
      body = JSON.parse(exchange.body.toString('utf8'));
    } catch {
      return [`the ${sent} body is not JSON`];
    }
    return this.validate(entry.schema, body).map((e) => `body${e.instancePath}: ${describe(e)}`);
  }

  private requestProblems(operation: Json, exchange: Exchange, query: string): string[] {
    if (exchange.status < 200 || exchange.status > 299) return [];
    const problems: string[] = [];
    const sent = new URLSearchParams(query);
    for (const parameter of Array.isArray(operation.parameters) ? operation.parameters : []) {
      if (!isObject(parameter) || parameter.required !== true) continue;
      const name = String(parameter.name);
      const missing =
        (parameter.in === 'query' && !sent.has(name)) ||
        (parameter.in === 'header' && exchange.requestHeaders[name.toLowerCase()] === undefined);
      if (missing)
        problems.push(
          `the ${String(parameter.in)} parameter ${name} is required by the document, yet a request without it was accepted`,
        );
    }
    const body = isObject(operation.requestBody) ? this.resolve(operation.requestBody) : undefined;
    const length = Number(exchange.requestHeaders['content-length'] ?? 0);
    const hasBody = length > 0 || exchange.requestHeaders['transfer-encoding'] !== undefined;
    if (body?.required === true && !hasBody)
      problems.push('the request body is required by the document, yet a request without one was accepted');
    return problems;
  }

  private resolve(object: Json): Json {
    const ref = object.$ref;
    if (typeof ref !== 'string') return object;
    let target: unknown = this.document;
    for (const part of ref.replace(/^#\//, '').split('/'))
      target = isObject(target) ? target[part.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
    if (!isObject(target)) throw new Error(`unresolvable $ref ${ref}`);
    return this.resolve(target);
  }

  private validate(schema: Json, data: unknown): ErrorObject[] {
    let validator = this.compiled.get(schema);
    if (!validator) {
      validator = this.ajv.compile(forAjv(schema));
      this.compiled.set(schema, validator);
    }
    return validator(data) ? [] : (validator.errors ?? []).slice(0, 8);
  }
}

function mediaMatches(documented: string, sent: string): boolean {
  if (documented === sent || documented === '*/*') return true;
  return documented.endsWith('/*') && sent.startsWith(documented.slice(0, -1));
}

/** Header values are text; a number-typed header is compared as the number it spells. */
function headerValue(schema: Json, text: string): unknown {
  const numeric = schema.type === 'integer' || schema.type === 'number';
  return numeric && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

function describe(error: ErrorObject): string {
  const params = Object.entries(error.params)
    .filter(([key]) => key !== 'error')
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join(', ');
  return `${error.message ?? error.keyword}${params ? ` (${params})` : ''}`;
}
