import type { FastifyRequest } from 'fastify';
import type { BrandCode } from '../brands.js';
import { Unauthenticated } from '../errors.js';

/**
 * The authenticated caller as the quotes area sees it. The identity area's auth guard sets
 * `request.principal`; `principalOf` is the one place the quotes area reads it.
 * MERGE: when the identity branch lands, delete this augmentation in favour of its own.
 */
export interface Principal {
  userId: number;
  partnerId: number;
  partnerCode: string;
  brandCode: BrandCode;
  userTypeId: number;
  customerInterfaceId: number;
  username?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

export interface QuoteActor {
  userId: number;
  username: string;
  partnerId: number;
  partnerCode: string;
}

export function principalOf(request: FastifyRequest): QuoteActor {
  const principal = request.principal;
  if (!principal) throw new Unauthenticated('UNAUTHENTICATED', 'A valid bearer token is required.', 'Bearer');
  return {
    userId: principal.userId,
    username: principal.username ?? `user-${principal.userId}`,
    partnerId: principal.partnerId,
    partnerCode: principal.partnerCode,
  };
}
