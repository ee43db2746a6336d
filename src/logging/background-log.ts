import type { FastifyBaseLogger } from 'fastify';

/** What work outside a request (the outbox worker, the money flow's recovery) writes its lines to. */
export type BackgroundLog = Pick<FastifyBaseLogger, 'error' | 'warn' | 'info'>;
