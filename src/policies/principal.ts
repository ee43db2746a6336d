import type { FastifyRequest } from 'fastify';
import { principalOf as guardedPrincipal } from '../auth/guard.js';

/** Who is asking, as far as policies care: the partner decides which policies are visible. */
export interface PolicyReader {
  readonly partnerId: number;
  readonly userId: number;
}

/** The caller, as the bearer guard of the protected scope established it. */
export function principalOf(request: FastifyRequest): PolicyReader {
  const { partnerId, userId } = guardedPrincipal(request);
  return { partnerId, userId };
}
