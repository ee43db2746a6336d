import type { FastifyRequest } from 'fastify';
import { Unauthenticated } from '../errors.js';

/** Who is asking, as far as policies care: the partner decides which policies are visible. */
export interface PolicyReader {
  readonly partnerId: number;
  readonly userId: number;
}

/**
 * The authenticated caller. The identity area's guard sets `request.principal` on every route of
 * the protected scope; without one (a route wrongly registered outside it) nothing is shown.
 */
export function principalOf(request: FastifyRequest): PolicyReader {
  const principal = request.principal;
  if (!principal) throw new Unauthenticated('UNAUTHENTICATED', 'A valid bearer token is required.', 'Bearer');
  return { partnerId: principal.partnerId, userId: principal.userId };
}

// Stand-in until the identity branch is merged: it declares the full, typed `request.principal`;
// then this block is deleted (the one place policies declare it).
declare module 'fastify' {
  interface FastifyRequest {
    principal?: { readonly userId: number; readonly partnerId: number };
  }
}
