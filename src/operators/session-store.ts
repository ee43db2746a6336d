import { createHash } from 'node:crypto';
import type { SessionStore } from '@fastify/session';
import type { Session } from 'fastify';
import type { Clock } from '../context.js';
import type { Db } from '../db/database.js';
import {
  deleteExpiredSessions,
  deleteSession,
  deleteSessionsOf,
  findSession,
  saveSession,
} from './session-repository.js';

/** A session saved without a cookie expiry (the console always sets one) is kept this long. */
const DEFAULT_LIFETIME_MS = 24 * 3_600_000;

const sidHashOf = (sessionId: string) => createHash('sha256').update(sessionId).digest('hex');

/**
 * When the row may be forgotten: the cookie's lifetime from now, on the service's clock (the cookie's
 * own `expires` is on the machine's clock, which a test's clock may not be). The console's guard ends
 * a session earlier by its own rules (idle, absolute); this only bounds how long a row is kept.
 */
function expiryOf(session: Session, now: Date): string {
  const maxAge = (session.cookie as { originalMaxAge?: number | null } | undefined)?.originalMaxAge;
  const lifetime = typeof maxAge === 'number' && maxAge > 0 ? maxAge : DEFAULT_LIFETIME_MS;
  return new Date(now.getTime() + lifetime).toISOString();
}

function operatorIdOf(session: Session): number | null {
  const id = (session as { operatorId?: unknown }).operatorId;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

/**
 * The console's sessions in the database (@fastify/session's store): every process sharing the
 * database sees the same sessions, and a restart keeps them. A session id is stored only as its
 * SHA-256, so reading the table gives no live session; a session past its cookie's expiry is never
 * returned, and `purgeExpired` deletes it.
 */
export class OperatorSessionStore implements SessionStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  set(sessionId: string, session: Session, callback: (err?: unknown) => void): void {
    const now = this.clock();
    saveSession(this.db, {
      sidHash: sidHashOf(sessionId),
      operatorId: operatorIdOf(session),
      data: JSON.stringify(session),
      at: now.toISOString(),
      expiresAt: expiryOf(session, now),
    }).then(
      () => callback(),
      (error: unknown) => callback(error),
    );
  }

  get(sessionId: string, callback: (err: unknown, result?: Session | null) => void): void {
    findSession(this.db, sidHashOf(sessionId), this.clock().toISOString())
      .then((stored) => (stored ? (JSON.parse(stored.data) as Session) : null))
      .then(
        (session) => callback(null, session),
        (error: unknown) => callback(error),
      );
  }

  destroy(sessionId: string, callback: (err?: unknown) => void): void {
    deleteSession(this.db, sidHashOf(sessionId)).then(
      () => callback(),
      (error: unknown) => callback(error),
    );
  }

  /** "Sign out everywhere": ends every session of the operator; returns how many ended. */
  destroySessionsOf(operatorId: number): Promise<number> {
    return deleteSessionsOf(this.db, operatorId);
  }

  /** Deletes up to `limit` expired sessions (the server's sweep calls it); returns how many. */
  purgeExpired(limit = 500): Promise<number> {
    return deleteExpiredSessions(this.db, this.clock().toISOString(), limit);
  }
}
