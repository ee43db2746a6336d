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

function expiryOf(session: Session, now: Date): string {
  const expires = (session.cookie as { expires?: Date | string | null } | undefined)?.expires;
  const at = expires ? new Date(expires) : undefined;
  return at && !Number.isNaN(at.getTime())
    ? at.toISOString()
    : new Date(now.getTime() + DEFAULT_LIFETIME_MS).toISOString();
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
    findSession(this.db, sidHashOf(sessionId), this.clock().toISOString()).then(
      (stored) => callback(null, stored ? (JSON.parse(stored.data) as Session) : null),
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
