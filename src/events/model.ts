import { OUTBOX_STATES, type OutboxState } from '../db/outbox/repository.js';
import type { Executor } from '../db/database.js';
import type { NewOutboxMessage } from '../db/outbox/repository.js';

/**
 * Partner events (issue 21): what happened to a partner's policies and purchases, in the shape
 * every delivery, the pull feed and the event reads share: `{ id, type, timestamp, data }`.
 */
export const EVENT_TYPES = [
  'policy.issued',
  'policy.amended',
  'policy.cancelled',
  'payment.captured',
  'payment.refunded',
  'purchase.declined',
  'documents.sent',
  'quote.referred',
  'quote.referral_approved',
  'quote.referral_declined',
  'quote.information_requested',
  'policy.amendment_referred',
  'policy.amendment_referral_approved',
  'policy.amendment_referral_declined',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** A recorded event as partners read it. */
export interface PartnerEvent {
  /** `evt_…`, stable: the `webhook-id` of every delivery of it. */
  readonly id: string;
  readonly type: EventType;
  /** When the change it reports committed (ISO 8601 UTC). */
  readonly timestamp: string;
  readonly data: Readonly<Record<string, unknown>>;
  /** Whose it is: only this partner, under this brand, sees or receives it. */
  readonly partnerId: number;
  readonly brandCode: string;
  readonly policyNumber?: string;
  /** 1, 2, 3 … per policy in commit order (also in `data.policyEventSequence`). */
  readonly policySequence?: number;
  /** A `webhook.test` event's one endpoint. */
  readonly endpointId?: string;
  /** Position in the partner's feed once published. */
  readonly feedPosition?: number;
}

/** An event to record in the transaction of the change it reports. */
export interface NewPartnerEvent {
  readonly type: EventType;
  /** The cause, unique: recording the same cause again records nothing (`policy.issued:<quoteId>` …). */
  readonly sourceKey: string;
  readonly partnerId: number;
  readonly brandCode: string;
  readonly policyNumber?: string;
  readonly endpointId?: string;
  readonly at: string;
  /** Without `policyEventSequence`: the recording adds it. */
  readonly data: Readonly<Record<string, unknown>>;
}

/** The partner's identifiers of a policy: the quote it was bought from and its booking reference. */
export interface PolicyReferences {
  readonly quoteId?: string;
  readonly bookingReference?: string;
}

export const ATTEMPT_OUTCOMES = ['SUCCEEDED', 'FAILED'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** One delivery attempt of an event to a webhook endpoint, as its partner reads it. */
export interface DeliveryAttemptView {
  readonly attempt: number;
  readonly attemptedAt: string;
  readonly outcome: AttemptOutcome;
  readonly statusCode?: number;
  readonly latencyMs: number;
  readonly error?: string;
  readonly responseExcerpt?: string;
}

/** A delivery's outbox state: PENDING (attempts to come), SENT, FAILED (retries exhausted). */
export const DELIVERY_STATES = OUTBOX_STATES;
export type DeliveryState = OutboxState;

/** An event's deliveries to one endpoint: the delivery's state (PENDING, SENT, FAILED) and its attempts. */
export interface EventDeliveries {
  readonly webhookId: string;
  readonly state?: DeliveryState;
  readonly attempts: readonly DeliveryAttemptView[];
}

/** The partner and brand a redelivery acts for (the caller's). */
export interface EventWebhookScope {
  readonly partnerId: number;
  readonly brandCode: string;
}

/**
 * What the event log needs of the webhooks area, injected where the routes are registered
 * (webhooks/fan-out.ts `webhooksOfEventLog`): `attemptsOfEvent` (webhooks/repository-attempts.ts),
 * the outbox message of one delivery (key `webhook:<eventId>:<webhookId>`, kind
 * `webhook-delivery`), and the endpoints a redelivery may queue. Absent: no deliveries to show or redo.
 */
export interface EventWebhooks {
  readonly deliveriesOf: (db: Executor, eventId: string) => Promise<readonly EventDeliveries[]>;
  /** The state of every delivery of these events (event id → webhook id → state), in a few queries. */
  readonly deliveryStatesOf: (
    db: Executor,
    scope: EventWebhookScope,
    eventIds: readonly string[],
  ) => Promise<ReadonlyMap<string, ReadonlyMap<string, DeliveryState>>>;
  /** The delivery's outbox message, in the event's partner's share of the webhook lanes. */
  readonly deliveryMessage: (event: PartnerEvent, webhookId: string, at: string) => NewOutboxMessage;
  /**
   * The endpoints the event would be fanned out to now: the enabled, live (not deleted) endpoints
   * of its partner and brand subscribed to its type; a `webhook.test` event only its own endpoint.
   */
  readonly liveEndpointsFor: (db: Executor, event: PartnerEvent) => Promise<readonly string[]>;
  /**
   * Checks that `webhookId` is a live endpoint of the partner and brand and is enabled: throws
   * 404 `WEBHOOK_NOT_FOUND` (unknown, deleted, another's) or 409 `WEBHOOK_DISABLED` otherwise.
   */
  readonly assertLiveEndpoint: (db: Executor, scope: EventWebhookScope, webhookId: string) => Promise<void>;
}
