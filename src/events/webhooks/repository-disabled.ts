import type { Executor } from '../../db/database.js';
import type { After } from '../../kernel/keyset.js';
import type { DisabledReason, WebhookEndpoint } from './model.js';
import { endpointOf, PUBLIC_COLUMNS } from './repository.js';

/**
 * Endpoints the service disabled (GONE, FAILING), across partners, as operators work them (the
 * console's work queue). Statements over `webhook_endpoint`, whose owner is repository.ts; never
 * the secrets. Endpoints a partner disabled itself (PARTNER) are the partner's to enable.
 */
export const SERVICE_DISABLED: readonly DisabledReason[] = ['GONE', 'FAILING'];

/** Live endpoints disabled by the service, longest disabled first (then id), `limit` after `after`. */
export async function serviceDisabledEndpoints(
  db: Executor,
  page: { readonly limit: number; readonly after?: After },
): Promise<WebhookEndpoint[]> {
  const { after } = page;
  let query = db
    .selectFrom('webhook_endpoint')
    .select(PUBLIC_COLUMNS)
    .where('enabled', '=', 0)
    .where('deleted_at', 'is', null)
    .where('disabled_reason', 'in', [...SERVICE_DISABLED]);
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb('disabled_at', '>', after.at),
        eb.and([eb('disabled_at', '=', after.at), eb('public_id', '>', after.id)]),
      ]),
    );
  const rows = await query.orderBy('disabled_at').orderBy('public_id').limit(page.limit).execute();
  return rows.map(endpointOf);
}

export async function countServiceDisabledEndpoints(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoint')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('enabled', '=', 0)
    .where('deleted_at', 'is', null)
    .where('disabled_reason', 'in', [...SERVICE_DISABLED])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A live endpoint of any partner, by id (operators). */
export async function findLiveEndpoint(db: Executor, publicId: string): Promise<WebhookEndpoint | undefined> {
  const row = await db
    .selectFrom('webhook_endpoint')
    .select(PUBLIC_COLUMNS)
    .where('public_id', '=', publicId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? endpointOf(row) : undefined;
}

/**
 * Enables an endpoint the service disabled, as the partner's PATCH `{ "enabled": true }` does (the
 * reason, the time and `failing_since` cleared); compare and set: false when it is not (or no
 * longer) disabled by the service, or deleted.
 */
export async function enableServiceDisabled(db: Executor, publicId: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoint')
    .set({ enabled: 1, disabled_reason: null, disabled_at: null, failing_since: null, updated_at: at })
    .where('public_id', '=', publicId)
    .where('enabled', '=', 0)
    .where('deleted_at', 'is', null)
    .where('disabled_reason', 'in', [...SERVICE_DISABLED])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
