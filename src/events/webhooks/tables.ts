import type { Generated, Selectable } from 'kysely';

/** Partners' webhook endpoints and every delivery attempt to them (issue 21). */
export interface WebhooksTables {
  webhook_endpoint: WebhookEndpointTable;
  webhook_delivery_attempt: WebhookDeliveryAttemptTable;
}

export interface WebhookEndpointTable {
  id: Generated<number>;
  /** Public id, the `webhookId` of the paths: `whe_` + 22 base64url characters. */
  public_id: string;
  partner_id: number;
  brand_code: string;
  url: string;
  description: string | null;
  /** JSON array of event types; `[]` = every type. */
  event_types_json: string;
  /** 0/1. */
  enabled: number;
  /** Why it was disabled (`GONE`, `FAILING`, `PARTNER`), and since when. */
  disabled_reason: string | null;
  disabled_at: string | null;
  /** The signing secret (`whsec_…`), sealed with AES-256-GCM under KEY_ENCRYPTION_SECRET. */
  secret_sealed: string;
  /** The secret before the last rotation, still signing until `previous_secret_expires_at`. */
  previous_secret_sealed: string | null;
  previous_secret_expires_at: string | null;
  /** The first failed delivery since the last success; null while healthy. */
  failing_since: string | null;
  created_at: string;
  updated_at: string;
  /** Deleted endpoints are kept (their attempts stay readable) but never delivered to. */
  deleted_at: string | null;
}

export interface WebhookDeliveryAttemptTable {
  id: Generated<number>;
  /** partner_event.event_id (the `webhook-id`). */
  event_id: string;
  /** webhook_endpoint.public_id. */
  endpoint_public_id: string;
  /** 1, 2, 3 … per (event, endpoint), across redeliveries. */
  attempt: number;
  attempted_at: string;
  /** SUCCEEDED or FAILED. */
  outcome: string;
  /** The receiver's status; null when no answer came (timeout, refused address, connection error). */
  status_code: number | null;
  latency_ms: number;
  /** Machine-readable reason of a failure (`TIMEOUT`, `ADDRESS_REFUSED`, `HTTP_500` …). */
  error: string | null;
  /** The first bytes of the receiver's answer (bounded), shown to the endpoint's own partner only. */
  response_excerpt: string | null;
}

export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;
export type WebhookDeliveryAttemptRow = Selectable<WebhookDeliveryAttemptTable>;

declare module '../../db/database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends WebhooksTables {}
}
