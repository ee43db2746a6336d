import type { FastifyRequest } from 'fastify';
import type { BrandCode } from '../kernel/brands.js';
import { TokenRequired } from './errors.js';

/** Who is calling, as the bearer guard (guard.ts) established it; routes of `protectedApi` read it. */
export interface Principal {
  readonly userId: number;
  readonly partnerId: number;
  readonly partnerCode: string;
  readonly brandCode: BrandCode;
  readonly userTypeId: number;
  readonly customerInterfaceId: number;
  /** The login, for audit trails. */
  readonly username: string;
}

/** The part of a principal that ownership and audit trails record (a quote's creator and editor). */
export type Actor = Pick<Principal, 'userId' | 'username' | 'partnerId' | 'partnerCode'>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the bearer guard on every `protectedApi` route; null elsewhere. */
    principal: Principal | null;
  }
}

/** The principal of a guarded request; throws if a route outside the guard asks for one. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new TokenRequired();
  return request.principal;
}
