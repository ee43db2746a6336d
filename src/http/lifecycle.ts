import type { FastifyInstance } from 'fastify';

/** Whether this process is draining before shutdown; read by /ready and the response hook. */
export interface Lifecycle {
  draining: boolean;
}

/**
 * While draining, every response asks the client to close its connection, so keep-alive
 * clients and load balancers move to another process before the listener goes away.
 */
export function registerLifecycle(app: FastifyInstance): Lifecycle {
  const lifecycle: Lifecycle = { draining: false };
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (lifecycle.draining) reply.header('connection', 'close');
    done(null, payload);
  });
  return lifecycle;
}
