import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { workQueuePages } from '../../src/console/work-pages.js';
import type { OperatorRole } from '../../src/operators/model.js';
import type { TestApp } from '../helpers/app.js';
import { OPERATORS } from './support.js';

/**
 * The work queues' pages mounted as the console mounts them (under /console), with the console's
 * session guard and CSRF check stood in for: the operator comes from the `x-test-role` header
 * (signed in by the console plugin in production; test/helpers/console.ts does it for real).
 */
export async function pageHarness(t: TestApp): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(formbody);
  app.decorateRequest('operator', null as never);
  app.decorateReply('generateCsrf', () => 'test-csrf-token');
  app.addHook('preHandler', async (request) => {
    const role = request.headers['x-test-role'];
    request.operator = OPERATORS[(typeof role === 'string' ? role : 'SUPPORT') as OperatorRole];
    return Promise.resolve();
  });
  await app.register(
    async (scope) => {
      await scope.register(workQueuePages, { context: t.context });
    },
    { prefix: '/console' },
  );
  await app.ready();
  return app;
}

/** A form POST as the console's pages send it. */
export const formPost = (url: string, fields: Record<string, string>, role: OperatorRole = 'SUPPORT') => ({
  method: 'POST' as const,
  url,
  headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-test-role': role },
  payload: new URLSearchParams({ _csrf: 'test-csrf-token', ...fields }).toString(),
});
