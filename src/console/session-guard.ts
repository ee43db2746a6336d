import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleConfig } from '../config/console.js';
import type { Clock } from '../context.js';
import type { ConsoleOperators } from './operators-port.js';

/** How often a session's last-seen time is written (a page view between writes moves it by less). */
const SEEN_WRITE_EVERY_MS = 60_000;

/**
 * The console's session rule: a signed-in operator, active (not disabled, not signed out everywhere),
 * within the idle and the absolute timeout. Otherwise the session ends and the visitor is sent to
 * sign in (a GET) or refused (401). The operator is read again on every request, so a role change or a
 * disabling takes effect at once.
 */
export async function requireOperator(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: { operators: ConsoleOperators; config: ConsoleConfig; clock: Clock },
): Promise<boolean> {
  const { session } = request;
  const now = deps.clock().getTime();
  const { operatorId, signedInAt, lastSeenAt } = session;
  const current =
    operatorId !== undefined && signedInAt !== undefined && lastSeenAt !== undefined
      ? now - Date.parse(signedInAt) < deps.config.sessionHours * 3_600_000 &&
        now - Date.parse(lastSeenAt) < deps.config.idleMinutes * 60_000 &&
        (await deps.operators.current(operatorId, signedInAt))
      : undefined;
  if (!current) {
    if (operatorId !== undefined) await session.destroy();
    if (request.method === 'GET' || request.method === 'HEAD') {
      await reply.code(303).header('Location', '/console/sign-in').header('Cache-Control', 'no-store').send();
    } else {
      await reply
        .code(401)
        .header('Cache-Control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('Sign in to the console again.\n');
    }
    return false;
  }
  request.operator = current;
  if (lastSeenAt === undefined || now - Date.parse(lastSeenAt) >= SEEN_WRITE_EVERY_MS)
    session.lastSeenAt = new Date(now).toISOString();
  return true;
}
