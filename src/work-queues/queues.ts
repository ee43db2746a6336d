import type { PartnerRecord } from '../auth/repository.js';
import {
  countPartners,
  findPartnerById,
  partnersByIds,
  partnersPage,
  usersOfPartner,
  type PartnerListing,
  type PartnerUser,
} from '../auth/repository-users.js';
import type { Executor } from '../db/database.js';
import { countFailedMessages, failedMessages } from '../db/outbox/repository.js';
import { countDisabledEndpoints, disabledEndpointQueue } from '../events/webhooks/reenable.js';
import type { WebhookEndpoint } from '../events/webhooks/model.js';
import { pageOf, type After, type KeysetPage } from '../kernel/keyset.js';
import { recentActions, type OperatorActionEntry } from '../operators/audit-repository.js';
import { NO_OPERATOR } from '../operators/audit.js';
import { findOperatorById } from '../operators/repository.js';
import { attentionQueue, countAttention, type AttentionItem } from '../policy-changes/attention.js';

/** What the console's work queues read (issue 31): each list a keyset page, queues oldest first. */
export interface PageRequest {
  readonly limit: number;
  readonly after?: After;
}

export interface WorkCounts {
  readonly attention: number;
  readonly failedDeliveries: number;
  readonly disabledEndpoints: number;
  readonly partners: number;
}

export async function workCounts(db: Executor): Promise<WorkCounts> {
  const [attention, failedDeliveries, disabledEndpoints, partners] = await Promise.all([
    countAttention(db),
    countFailedMessages(db),
    countDisabledEndpoints(db),
    countPartners(db),
  ]);
  return { attention, failedDeliveries, disabledEndpoints, partners };
}

export const attentionPage = (db: Executor, page: PageRequest): Promise<KeysetPage<AttentionItem>> =>
  attentionQueue(db, page);

/** Which kind of delivery a failed outbox message is, as operators read it. */
export type DeliveryKind = 'E-MAIL' | 'WEBHOOK' | 'EVENT';

/** A failed delivery: its key and what went wrong (never its payload: addresses, policy data). */
export interface FailedDelivery {
  readonly key: string;
  readonly kind: DeliveryKind;
  readonly attempts: number;
  /** The failure's value-free name and code (the outbox never keeps an error's message). */
  readonly lastError?: string;
  readonly since: string;
  /** A webhook delivery's endpoint (`whe_…`). */
  readonly endpointId?: string;
}

const KINDS: Readonly<Record<string, DeliveryKind>> = {
  'policy-documents': 'E-MAIL',
  'webhook-delivery': 'WEBHOOK',
  'partner-event': 'EVENT',
};

function deliveryOf(message: {
  key: string;
  kind: string;
  attempts: number;
  lastError?: string;
  createdAt: string;
}): FailedDelivery {
  const kind = KINDS[message.kind] ?? 'EVENT';
  // `webhook:<event id>:<endpoint id>` (events/webhooks/repository-attempts.ts deliveryKey).
  const endpointId = kind === 'WEBHOOK' ? message.key.split(':')[2] : undefined;
  return {
    key: message.key,
    kind,
    attempts: message.attempts,
    ...(message.lastError === undefined ? {} : { lastError: message.lastError }),
    since: message.createdAt,
    ...(endpointId === undefined ? {} : { endpointId }),
  };
}

export async function failedDeliveriesPage(db: Executor, page: PageRequest): Promise<KeysetPage<FailedDelivery>> {
  const messages = await failedMessages(db, page.limit + 1, page.after ? { after: page.after } : {});
  return pageOf(messages.map(deliveryOf), page.limit, (d) => ({ at: d.since, id: d.key }));
}

export async function partnerListPage(db: Executor, page: PageRequest): Promise<KeysetPage<PartnerListing>> {
  const partners = await partnersPage(db, { ...page, limit: page.limit + 1 });
  return pageOf(partners, page.limit, (p) => ({ at: 'code', id: p.code }));
}

export interface PartnerUsers {
  readonly partner: PartnerRecord;
  readonly users: KeysetPage<PartnerUser>;
}

/** A partner and a page of its users by login; undefined for an unknown partner. */
export async function partnerUsersPage(
  db: Executor,
  partnerId: number,
  page: PageRequest,
): Promise<PartnerUsers | undefined> {
  const partner = await findPartnerById(db, partnerId);
  if (!partner) return undefined;
  const users = await usersOfPartner(db, partnerId, { ...page, limit: page.limit + 1 });
  return { partner, users: pageOf(users, page.limit, (u) => ({ at: 'login', id: u.login.toLowerCase() })) };
}

export interface DisabledEndpoint {
  readonly endpoint: WebhookEndpoint;
  readonly partner?: PartnerRecord;
}

export async function disabledEndpointsPage(db: Executor, page: PageRequest): Promise<KeysetPage<DisabledEndpoint>> {
  const endpoints = await disabledEndpointQueue(db, page);
  const partners = await partnersByIds(
    db,
    endpoints.items.map((e) => e.partnerId),
  );
  const items = endpoints.items.map((endpoint) => {
    const partner = partners.get(endpoint.partnerId);
    return partner ? { endpoint, partner } : { endpoint };
  });
  return endpoints.next ? { items, next: endpoints.next } : { items };
}

/** A page of the audit trail, with who each operator is (`Name (username)`; id 0: not a signed-in operator). */
export interface AuditTrailPage {
  readonly entries: KeysetPage<OperatorActionEntry>;
  readonly who: ReadonlyMap<number, string>;
}

/** A page of the audit trail, newest first (its key: the last entry's id). */
export async function auditPage(
  db: Executor,
  page: { readonly limit: number; readonly beforeId?: number },
): Promise<AuditTrailPage> {
  const found = await recentActions(db, { ...page, limit: page.limit + 1 });
  const entries = pageOf(found, page.limit, (e) => ({ at: 'id', id: String(e.id) }));
  const who = new Map<number, string>([[NO_OPERATOR, 'the command line or an unknown visitor']]);
  for (const id of new Set(entries.items.map((e) => e.operatorId)))
    if (!who.has(id)) {
      // Only the name and username leave the operators area's account.
      const account = await findOperatorById(db, id);
      who.set(id, account ? `${account.displayName} (${account.username})` : `operator ${id}`);
    }
  return { entries, who };
}
