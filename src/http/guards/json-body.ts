import type { FastifyInstance } from 'fastify';
import { ForbiddenProperty } from '../../kernel/errors.js';

/**
 * Fastify's own JSON parser (secure-json-parse) with its refusal of `__proto__` and
 * `constructor.prototype` named: Fastify reports both as "not valid JSON", which sent partners
 * looking for a syntax error in valid JSON. Only a failed parse pays for the second look.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const strict = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    void strict(request, text, (error, value) => {
      if (error && isJson(text)) done(new ForbiddenProperty(), undefined);
      else done(error, value);
    });
  });
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
