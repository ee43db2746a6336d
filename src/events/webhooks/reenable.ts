import type { Executor } from '../../db/database.js';
import { Conflict } from '../../kernel/errors.js';
import { pageOf, type After, type KeysetPage } from '../../kernel/keyset.js';
import { WebhookNotFound } from './errors.js';
import type { WebhookEndpoint } from './model.js';
import {
  countServiceDisabledEndpoints,
  enableServiceDisabled,
  findLiveEndpoint,
  serviceDisabledEndpoints,
} from './repository-disabled.js';

/**
 * Operators' side of disabled endpoints (issue 31). Re-enabling does what the partner's own
 * PATCH `{ "enabled": true }` does: the endpoint receives events recorded from then on; its URL is
 * checked again at every delivery (address-guard.ts); deliveries that failed meanwhile stay FAILED
 * until the partner redelivers them or an operator retries them (the deliveries queue).
 */
export class EndpointNotServiceDisabled extends Conflict {
  constructor(readonly endpoint: WebhookEndpoint) {
    super(
      'WEBHOOK_NOT_DISABLED_BY_SERVICE',
      endpoint.enabled
        ? `Webhook endpoint '${endpoint.id}' is enabled already.`
        : `Webhook endpoint '${endpoint.id}' was disabled by its partner; only the partner enables it again.`,
      { property: 'webhookId', value: endpoint.id },
    );
  }
}

/** A page of the endpoints the service disabled (410, or failing too long), longest disabled first. */
export async function disabledEndpointQueue(
  db: Executor,
  page: { readonly limit: number; readonly after?: After },
): Promise<KeysetPage<WebhookEndpoint>> {
  const endpoints = await serviceDisabledEndpoints(db, { ...page, limit: page.limit + 1 });
  return pageOf(endpoints, page.limit, (e) => ({ at: e.disabledAt ?? '', id: e.id }));
}

export const countDisabledEndpoints = (db: Executor): Promise<number> => countServiceDisabledEndpoints(db);

export interface EndpointReenabled {
  readonly before: WebhookEndpoint;
  readonly after: WebhookEndpoint;
}

/** Enables an endpoint the service disabled; refused when unknown, deleted, enabled or disabled by its partner. */
export async function reenableEndpoint(db: Executor, id: string, at: string): Promise<EndpointReenabled> {
  const before = await findLiveEndpoint(db, id);
  if (!before) throw new WebhookNotFound(id);
  // Read again when refused: another operator (or the partner) may have just enabled it.
  if (!(await enableServiceDisabled(db, id, at)))
    throw new EndpointNotServiceDisabled((await findLiveEndpoint(db, id)) ?? before);
  const after = await findLiveEndpoint(db, id);
  if (!after) throw new WebhookNotFound(id);
  return { before, after };
}
