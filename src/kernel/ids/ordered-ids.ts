import { v7 } from 'uuid';
import { randomBlockBytes } from '../crypto/random-token.js';

/**
 * Ids of the rows every sale writes (quotes, purchases, policy changes, events, the sandbox's
 * payments) are ordered by time: UUID version 7, 48 bits of milliseconds then 74 random bits.
 * Each table's unique index then grows at its right edge, so a commit of a batch of sales
 * dirties a few index pages rather than one page per row and index: on SQLite, 5.9 → 1.5 KB of
 * WAL per row of a unique-keyed table in commits of 20 rows (docs/performance.md). They are not
 * secrets (access is checked by owner); secrets stay wholly random (kernel/crypto/random-token.ts).
 */

/** A record's id: a UUID (version 7). */
export const newRecordId = (): string => v7({ random: randomBlockBytes(16) });

/** 128 bits as 22 base64url characters, whose leading characters follow the time. */
export const newOrderedToken = (): string =>
  Buffer.from(v7({ random: randomBlockBytes(16) }, new Uint8Array(16))).toString('base64url');
