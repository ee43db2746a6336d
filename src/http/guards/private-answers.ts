import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * `Cache-Control: no-store` (and HTTP/1.0's `Pragma: no-cache`) on every answer that does not set
 * its own caching: quotes, policies and purchases hold personal data, token answers hold secrets,
 * and their error answers echo parts of the request. One hook, so a new route is private unless it
 * opts in; the cacheable product reads set `private, max-age` themselves (cache-headers.ts) and keep it.
 */
export function registerPrivateAnswers(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    keepPrivate(reply);
    done(null, payload);
  });
}

/** `no-store` unless the answer set its own caching; also for answers no hook sees (errors before routing). */
export function keepPrivate(reply: FastifyReply): void {
  if (!reply.hasHeader('cache-control')) {
    reply.header('cache-control', 'no-store');
    reply.header('pragma', 'no-cache');
  }
}
