import type { EventType } from '../model.js';

/** Why an endpoint stopped receiving: its receiver answered 410, it failed for days, or the partner turned it off. */
export const DISABLED_REASONS = ['GONE', 'FAILING', 'PARTNER'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/** A partner's webhook endpoint as the service sees it (its secrets stay sealed in the repository). */
export interface WebhookEndpoint {
  /** Public id, `whe_` + 22 base64url characters. */
  readonly id: string;
  readonly partnerId: number;
  readonly brandCode: string;
  readonly url: string;
  readonly description?: string;
  /** Empty: every type. */
  readonly eventTypes: readonly EventType[];
  readonly enabled: boolean;
  readonly disabledReason?: DisabledReason;
  readonly disabledAt?: string;
  readonly failingSince?: string;
  /** While set and in the future, the previous secret still signs too. */
  readonly previousSecretExpiresAt?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly deleted: boolean;
}

/** The sealed signing secrets of an endpoint (the delivery opens them). */
export interface SealedSecrets {
  readonly current: string;
  readonly previous?: string;
  readonly previousExpiresAt?: string;
}

/** Which endpoints of a partner: the bearer principal's partner and brand. */
export interface EndpointScope {
  readonly partnerId: number;
  readonly brandCode: string;
}
