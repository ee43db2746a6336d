import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { RateLimits, Verdict } from '../http/limits/rate-limits.js';
import { OAuthError } from './errors.js';
import type { TokenRequestLimits } from './routes.js';

/** A bounded, opaque key for a username: a username may be anything a partner types (never stored as sent). */
const usernameKey = (username: string) =>
  createHash('sha256').update(username.toLowerCase()).digest('base64url').slice(0, 32);

/** Token-endpoint budgets; a 429 there uses the endpoint's OAuth body (`temporarily_unavailable`). */
export function tokenEndpointLimits(limits: RateLimits): TokenRequestLimits {
  const refuse = (reply: FastifyReply, verdict: Verdict, what: string) => {
    if (verdict.allowed) return;
    reply.headers(verdict.headers);
    const retryAfter = Number(verdict.headers['retry-after']);
    throw new OAuthError(
      429,
      'temporarily_unavailable',
      `Too many token requests for this ${what}; try again later.`,
      retryAfter,
    );
  };
  return {
    async byAddress(request, reply) {
      refuse(reply, await limits.take('token-address', `address:${request.ip}`), 'address');
    },
    async byUsername(request, reply) {
      const username = (request.body as Record<string, unknown> | undefined)?.username;
      if (typeof username !== 'string' || username === '') return;
      refuse(reply, await limits.take('token-username', `username:${usernameKey(username)}`), 'username');
    },
  };
}
