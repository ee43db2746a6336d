import type { Generated, Selectable } from 'kysely';

/**
 * The partner event log (issue 21). An event is written in the transaction of the change it
 * reports, with its per-policy sequence; a worker then publishes it (feed position, one delivery
 * per subscribed webhook endpoint). Timestamps are ISO 8601 UTC text; `data_json` is JSON.
 */
export interface EventsTables {
  partner_event: PartnerEventTable;
  event_counter: EventCounterTable;
}

export interface PartnerEventTable {
  id: Generated<number>;
  /** Public, stable: `evt_` + 22 base64url characters (128 random bits); the `webhook-id` of every delivery. */
  event_id: string;
  /** What caused it (`policy.issued:<quoteId>` …): the same cause never records two events. */
  source_key: string;
  partner_id: number;
  brand_code: string;
  type: string;
  policy_number: string | null;
  /** 1, 2, 3 … per policy in the order the changes committed; null for events without a policy. */
  policy_sequence: number | null;
  /** The event's `timestamp`: when the change it reports committed. */
  occurred_at: string;
  /** The event's `data`. */
  data_json: string;
  /** A `webhook.test` event goes to this endpoint only (webhook_endpoint.public_id); null: every subscriber. */
  endpoint_public_id: string | null;
  /** Order in the partner's pull feed, assigned when published (position order = commit order); null until then. */
  feed_position: number | null;
  published_at: string | null;
}

/** Gapless counters: `policy:<policyNumber>` (an event's policy sequence), `feed:<partnerId>:<brand>` (feed positions). */
export interface EventCounterTable {
  name: string;
  last_value: number;
}

export type PartnerEventRow = Selectable<PartnerEventTable>;

declare module '../db/database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends EventsTables {}
}
