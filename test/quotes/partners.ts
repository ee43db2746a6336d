import type { FastifyInstance } from 'fastify';
import type { BrandCode } from '../../src/brands.js';
import type { Principal } from '../../src/quotes/principal.js';
import type { TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';

/**
 * Test partners A and B. Until the identity area lands, `bearerFor` sends no token, so a
 * test-only root hook (registered here, in test code only, never in src/) turns the
 * `x-test-partner` header into `request.principal`.
 * MERGE: once `bearerFor` returns real tokens and the auth guard sets `request.principal`,
 * delete `installTestPrincipals` and the header; the ownership tests then run on real tokens.
 */
const PRINCIPALS: Record<'A' | 'B', Omit<Principal, 'brandCode'>> = {
  A: { userId: 501, partnerId: 9001, partnerCode: 'PARTNERA', userTypeId: 4, customerInterfaceId: 8, username: 'agent.a@partner-a.example' },
  B: { userId: 502, partnerId: 9002, partnerCode: 'PARTNERB', userTypeId: 4, customerInterfaceId: 8, username: 'agent.b@partner-b.example' },
};

export function installTestPrincipals(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const partner = request.headers['x-test-partner'];
    const brandCode = (request.params as { brandCode?: BrandCode } | undefined)?.brandCode ?? 'brandau';
    if (partner === 'A' || partner === 'B') request.principal = { ...PRINCIPALS[partner], brandCode };
    done();
  });
}

/** Headers of a request by a user of partner A or B of `brandCode`. */
export async function asPartner(t: TestApp, brandCode: BrandCode, partner: 'A' | 'B' = 'A'): Promise<Record<string, string>> {
  return { ...(await bearerFor(t, brandCode, partner)), 'x-test-partner': partner };
}
