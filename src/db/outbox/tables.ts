import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * One message to deliver at least once (an e-mail, later a signed partner event), written in the
 * transaction of the change that causes it. Timestamps are ISO 8601 UTC text; the payload is JSON.
 */
export interface OutboxMessageTable {
  id: Generated<number>;
  /** Stable and unique (`policy-documents:<policy>:<seq>`): enqueueing twice records it once. */
  message_key: string;
  /** Which handler delivers it (`policy-documents`, later partner events). */
  kind: string;
  payload_json: string;
  /**
   * Whose share of the delivery lanes it uses (webhook deliveries: `partner:<id>`); '' for the
   * common one. A worker with a per-share limit leases at most that many of one share at once.
   */
  share_key: Generated<string>;
  /** PENDING, SENT or FAILED. */
  state: string;
  /** Deliveries started so far (counted when leased: a crash while sending counts). */
  attempts: number;
  /** Not delivered before this instant (back-off after a failure). */
  next_attempt_at: string;
  /** The worker delivering it now, until `lease_until`; after that another worker may take it. */
  lease_owner: string | null;
  lease_until: string | null;
  /** Value-free name of the latest failure (an error's name and code, never its message). */
  last_error: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
}

export interface OutboxTables {
  outbox_message: OutboxMessageTable;
}

export type OutboxMessageRow = Selectable<OutboxMessageTable>;
export type NewOutboxMessageRow = Insertable<OutboxMessageTable>;

declare module '../database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends OutboxTables {}
}
