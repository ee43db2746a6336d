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
