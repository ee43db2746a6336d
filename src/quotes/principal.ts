import type { FastifyRequest } from 'fastify';
import { principalOf as guardedPrincipal } from '../auth/guard.js';

/** The caller as the quotes area records it (ownership and audit). */
export interface QuoteActor {
  userId: number;
  username: string;
  partnerId: number;
  partnerCode: string;
}

/** The one place the quotes area reads who is calling (set by the bearer guard). */
export function principalOf(request: FastifyRequest): QuoteActor {
  const { userId, username, partnerId, partnerCode } = guardedPrincipal(request);
  return { userId, username, partnerId, partnerCode };
}
