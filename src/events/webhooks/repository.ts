import type { Executor } from '../../db/database.js';
import type { EventType } from '../model.js';
import type { DisabledReason, EndpointScope, SealedSecrets, WebhookEndpoint } from './model.js';
import type { WebhookEndpointRow } from './tables.js';

/** Every column but the secrets: what reads of an endpoint answer. */
export const PUBLIC_COLUMNS = [
  'public_id',
  'partner_id',
  'brand_code',
  'url',
  'description',
  'event_types_json',
  'enabled',
  'disabled_reason',
  'disabled_at',
  'failing_since',
  'previous_secret_expires_at',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;
export type PublicRow = Pick<WebhookEndpointRow, (typeof PUBLIC_COLUMNS)[number]>;

export interface NewEndpoint extends EndpointScope {
  readonly publicId: string;
  readonly url: string;
  readonly description?: string;
  readonly eventTypes: readonly EventType[];
  readonly enabled: boolean;
  readonly secretSealed: string;
  readonly at: string;
}

export async function insertEndpoint(db: Executor, endpoint: NewEndpoint): Promise<void> {
  await db
    .insertInto('webhook_endpoint')
    .values({
      public_id: endpoint.publicId,
      partner_id: endpoint.partnerId,
      brand_code: endpoint.brandCode,
      url: endpoint.url,
      description: endpoint.description ?? null,
      event_types_json: JSON.stringify(endpoint.eventTypes),
      enabled: endpoint.enabled ? 1 : 0,
      disabled_reason: endpoint.enabled ? null : 'PARTNER',
      disabled_at: endpoint.enabled ? null : endpoint.at,
      secret_sealed: endpoint.secretSealed,
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      failing_since: null,
      created_at: endpoint.at,
      updated_at: endpoint.at,
      deleted_at: null,
    })
    .execute();
}

/** Live (not deleted) endpoints of a partner and brand. */
export async function countEndpoints(db: Executor, scope: EndpointScope): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoint')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('partner_id', '=', scope.partnerId)
    .where('brand_code', '=', scope.brandCode)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The ids of every endpoint a partner and brand ever had, deleted ones too, oldest first. */
export async function endpointIdsEver(db: Executor, scope: EndpointScope): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_endpoint')
    .select('public_id')
    .where('partner_id', '=', scope.partnerId)
    .where('brand_code', '=', scope.brandCode)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.public_id);
}

/** Live endpoints of a partner and brand, oldest first. */
export async function listEndpoints(db: Executor, scope: EndpointScope): Promise<WebhookEndpoint[]> {
  const rows = await db
    .selectFrom('webhook_endpoint')
    .select(PUBLIC_COLUMNS)
    .where('partner_id', '=', scope.partnerId)
    .where('brand_code', '=', scope.brandCode)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map(endpointOf);
}

/** A live endpoint of this partner and brand (undefined for another's: callers answer 404). */
export async function findEndpoint(
  db: Executor,
  scope: EndpointScope,
  publicId: string,
): Promise<WebhookEndpoint | undefined> {
  const row = await db
    .selectFrom('webhook_endpoint')
    .select(PUBLIC_COLUMNS)
    .where('public_id', '=', publicId)
    .where('partner_id', '=', scope.partnerId)
    .where('brand_code', '=', scope.brandCode)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? endpointOf(row) : undefined;
}

/** An endpoint as its deliveries need it: with its sealed secrets. */
export interface DeliveryEndpoint {
  readonly endpoint: WebhookEndpoint;
  readonly secrets: SealedSecrets;
}

/** Any endpoint by id, deleted ones included, with its sealed secrets (the delivery worker). */
export async function endpointForDelivery(db: Executor, publicId: string): Promise<DeliveryEndpoint | undefined> {
  return (await endpointsForDelivery(db, [publicId])).get(publicId);
}

/** `endpointForDelivery` for many ids in one statement (the deliveries leased together); missing ids are not in the map. */
export async function endpointsForDelivery(
  db: Executor,
  publicIds: readonly string[],
): Promise<Map<string, DeliveryEndpoint>> {
  if (publicIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('webhook_endpoint')
    .select([...PUBLIC_COLUMNS, 'secret_sealed', 'previous_secret_sealed'])
    .where('public_id', 'in', [...new Set(publicIds)])
    .execute();
  return new Map(
    rows.map((row) => [
      row.public_id,
      {
        endpoint: endpointOf(row),
        secrets: {
          current: row.secret_sealed,
          ...(row.previous_secret_sealed === null ? {} : { previous: row.previous_secret_sealed }),
          ...(row.previous_secret_expires_at === null ? {} : { previousExpiresAt: row.previous_secret_expires_at }),
        },
      },
    ]),
  );
}

export interface EndpointChange {
  readonly url?: string;
  readonly description?: string | null;
  readonly eventTypes?: readonly EventType[];
  /** true re-enables (clears the reason and the failing time); false disables with reason PARTNER. */
  readonly enabled?: boolean;
}

export async function updateEndpoint(
  db: Executor,
  publicId: string,
  change: EndpointChange,
  at: string,
): Promise<void> {
  await db
    .updateTable('webhook_endpoint')
    .set({
      updated_at: at,
      ...(change.url === undefined ? {} : { url: change.url }),
      ...(change.description === undefined ? {} : { description: change.description }),
      ...(change.eventTypes === undefined ? {} : { event_types_json: JSON.stringify(change.eventTypes) }),
      ...(change.enabled === true ? { enabled: 1, disabled_reason: null, disabled_at: null, failing_since: null } : {}),
    })
    .where('public_id', '=', publicId)
    .execute();
  if (change.enabled === false) await disableEndpoint(db, publicId, 'PARTNER', at);
}

/** Disables an endpoint that is enabled (an already disabled one keeps its first reason). */
export async function disableEndpoint(
  db: Executor,
  publicId: string,
  reason: DisabledReason,
  at: string,
): Promise<void> {
  await db
    .updateTable('webhook_endpoint')
    .set({ enabled: 0, disabled_reason: reason, disabled_at: at, updated_at: at })
    .where('public_id', '=', publicId)
    .where('enabled', '=', 1)
    .execute();
}

export async function deleteEndpoint(db: Executor, publicId: string, at: string): Promise<void> {
  await db
    .updateTable('webhook_endpoint')
    .set({ deleted_at: at, updated_at: at, enabled: 0 })
    .where('public_id', '=', publicId)
    .execute();
}

/** A new secret; the current one becomes the previous, signing too until `previousExpiresAt`. */
export async function rotateSecrets(
  db: Executor,
  publicId: string,
  rotation: { secretSealed: string; previousSealed: string; previousExpiresAt: string; at: string },
): Promise<void> {
  await db
    .updateTable('webhook_endpoint')
    .set({
      secret_sealed: rotation.secretSealed,
      previous_secret_sealed: rotation.previousSealed,
      previous_secret_expires_at: rotation.previousExpiresAt,
      updated_at: rotation.at,
    })
    .where('public_id', '=', publicId)
    .execute();
}

/** After a failed delivery: failing since `at` unless already failing; answers since when. */
export async function markFailing(db: Executor, publicId: string, at: string): Promise<string> {
  await db
    .updateTable('webhook_endpoint')
    .set({ failing_since: at })
    .where('public_id', '=', publicId)
    .where('failing_since', 'is', null)
    .execute();
  const row = await db
    .selectFrom('webhook_endpoint')
    .select('failing_since')
    .where('public_id', '=', publicId)
    .executeTakeFirstOrThrow();
  return row.failing_since ?? at;
}

/** After a successful delivery: healthy again. */
export async function markHealthy(db: Executor, publicId: string): Promise<void> {
  await db
    .updateTable('webhook_endpoint')
    .set({ failing_since: null })
    .where('public_id', '=', publicId)
    .where('failing_since', 'is not', null)
    .execute();
}

/** Enabled, live endpoints of a partner and brand (fan-out filters by event type). */
export async function enabledEndpoints(db: Executor, scope: EndpointScope): Promise<WebhookEndpoint[]> {
  const rows = await db
    .selectFrom('webhook_endpoint')
    .select(PUBLIC_COLUMNS)
    .where('partner_id', '=', scope.partnerId)
    .where('brand_code', '=', scope.brandCode)
    .where('enabled', '=', 1)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map(endpointOf);
}

export function endpointOf(row: PublicRow): WebhookEndpoint {
  return {
    id: row.public_id,
    partnerId: row.partner_id,
    brandCode: row.brand_code,
    url: row.url,
    ...(row.description === null ? {} : { description: row.description }),
    eventTypes: JSON.parse(row.event_types_json) as EventType[],
    enabled: row.enabled === 1,
    ...(row.disabled_reason === null ? {} : { disabledReason: row.disabled_reason as DisabledReason }),
    ...(row.disabled_at === null ? {} : { disabledAt: row.disabled_at }),
    ...(row.failing_since === null ? {} : { failingSince: row.failing_since }),
    ...(row.previous_secret_expires_at === null ? {} : { previousSecretExpiresAt: row.previous_secret_expires_at }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deleted: row.deleted_at !== null,
  };
}
