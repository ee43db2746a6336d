import type { FastifyInstance } from 'fastify';
import { ShuttingDown } from '../../kernel/errors.js';

/** Where this process is in its shutdown; read by /ready, the response hook and the request hook. */
export interface Lifecycle {
  /** Readiness fails and answers ask for `Connection: close`; requests are still served. */
  draining: boolean;
  /** The listener has stopped accepting: requests that still arrive get 503 `SHUTTING_DOWN`. */
  closing: boolean;
}

/**
 * While draining, every response asks the client to close its connection, so keep-alive
 * clients and load balancers move to another process before the listener goes away. Once
 * closing, a request that still arrives (on a connection opened before) is answered 503
 * `SHUTTING_DOWN` in the contract's body instead of starting work the process will not finish
 * (Fastify's own 503 on closing is off: its body is not the contract's).
 */
export function registerLifecycle(app: FastifyInstance): Lifecycle {
  const lifecycle: Lifecycle = { draining: false, closing: false };
  app.addHook('preClose', (done) => {
    lifecycle.closing = true;
    done();
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    done(lifecycle.closing ? new ShuttingDown() : undefined);
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (lifecycle.draining || lifecycle.closing) reply.header('connection', 'close');
    done(null, payload);
  });
  return lifecycle;
}
