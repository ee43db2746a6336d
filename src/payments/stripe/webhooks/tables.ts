import type { Generated } from 'kysely';

/** Tables of Stripe's webhooks (portable column rules: see src/db/database.ts); owned by repository.ts. */
export interface StripeWebhookTables {
  stripe_event: StripeEventTable;
  stripe_dispute: StripeDisputeTable;
}

/** One event Stripe sent, recorded before anything acts on it (model.ts has its states). */
export interface StripeEventTable {
  id: Generated<number>;
  /** Stripe's `evt_…`: unique, so a redelivery is recognised and acknowledged. */
  event_id: string;
  type: string;
  livemode: number;
  /** What the application reads of the event (model.ts `EventFacts`), never the whole payload. */
  facts_json: string;
  state: string;
  /** What applying it did (or why nothing), for operators. */
  outcome: string | null;
  attempts: number;
  /** RECEIVED: when the sweep may (re)apply it; a live application holds it until then. */
  next_attempt_at: string;
  /** The failure of the last attempt (an error's name, never a value). */
  last_error: string | null;
  stripe_created_at: string;
  received_at: string;
  updated_at: string;
}

/** A dispute (chargeback) a cardholder opened against one of our payments. */
export interface StripeDisputeTable {
  id: Generated<number>;
  dispute_id: string;
  payment_id: string;
  /** The policy the disputed payment paid for, when we know it. */
  policy_number: string | null;
  amount_minor: number;
  currency: string;
  reason: string;
  status: string;
  opened_at: string;
  closed_at: string | null;
  updated_at: string;
}

declare module '../../../db/database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends StripeWebhookTables {}
}
