import type { StoredDocument } from '../documents/repository.js';
import type { EventDeliveries, PartnerEvent } from '../events/model.js';
import type { OutboxState } from '../db/outbox/repository.js';
import type { PolicyRecord } from '../policies/model.js';
import type { NoteReason, PolicyNoteRecord } from '../policy-notes/model.js';
import type { ScreeningOnPolicy } from '../screening/model.js';

/** Everything an operator sees of one policy (issue 31): the console's policy page. */
export interface PolicyOverview {
  readonly policy: PolicyRecord;
  readonly partnerCode: string;
  /** Oldest first. */
  readonly notes: readonly PolicyNoteRecord[];
  /** The reasons a new note may give (active, in list order). */
  readonly reasons: readonly NoteReason[];
  readonly documents: readonly StoredDocument[];
  readonly emails: readonly PolicyEmail[];
  readonly events: readonly PolicyEventView[];
  /** Only for a role that may read screening conditions (health data); absent otherwise. */
  readonly screenings?: readonly ScreeningOnPolicy[];
}

/** One e-mail of a transaction's documents (an outbox message). */
export interface PolicyEmail {
  readonly sequenceNumber: number;
  /** `Documents` (sent when the transaction was made) or `Resend` (a partner asked again). */
  readonly kind: 'Documents' | 'Resend';
  /** Masked: the first character of the mailbox and the domain. */
  readonly to: string;
  readonly state: OutboxState;
  readonly attempts: number;
  readonly lastError?: string;
  readonly createdAt: string;
  readonly sentAt?: string;
}

export interface PolicyEventView {
  readonly event: PartnerEvent;
  readonly deliveries: readonly EventDeliveries[];
}
