import type { FastifyInstance } from 'fastify';

/**
 * `Cache-Control: no-store` (and HTTP/1.0's `Pragma: no-cache`) on every answer that does not set
 * its own caching: quotes, policies and purchases hold personal data, token answers hold secrets,
 * and their error answers echo parts of the request. One hook, so a new route is private unless it
 * opts in; the cacheable product reads set `private, max-age` themselves (cache-headers.ts) and keep it.
 */
export function registerPrivateAnswers(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
      reply.header('pragma', 'no-cache');
    }
    done(null, payload);
  });
}
