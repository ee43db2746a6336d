import { randomUUID } from 'node:crypto';
import type { Clock } from '../../context.js';
import { purgeSendBudgets, takeSendBudget } from '../../db/budgets/repository.js';
import { secondsLeftIn } from '../../db/budgets/windows.js';
import type { Db } from '../../db/database.js';
import type { EventType } from '../model.js';
import { recordEvent } from '../repository.js';
import { refusedDestination, type AddressRules, type Resolver } from './address-guard.js';
import { MAX_ENDPOINTS_PER_BRAND } from '../../config/webhooks.js';
import { lockName } from '../../db/named-locks.js';
import {
  WebhookDisabled,
  WebhookLimitReached,
  WebhookNotFound,
  WebhookTestsLimited,
  WebhookUrlRefused,
} from './errors.js';
import type { EndpointScope, WebhookEndpoint } from './model.js';
import * as repo from './repository.js';
import { newEndpointId, newWebhookSecret, sealWebhookSecret } from './secrets.js';

/** What managing endpoints needs. */
export interface WebhookDeps {
  readonly db: Db;
  readonly clock: Clock;
  /** KEY_ENCRYPTION_SECRET: seals the signing secrets. */
  readonly keySecret: string;
  readonly rules: AddressRules;
  readonly resolve: Resolver;
  /** Default overlap of a rotated secret. */
  readonly secretOverlapSeconds: number;
  /** Test events one partner may send in a UTC hour. */
  readonly testEventsPerHour: number;
}

export interface EndpointInput {
  readonly url: string;
  readonly eventTypes?: readonly EventType[];
  readonly description?: string;
  readonly enabled?: boolean;
}

/** An endpoint with its secret: only the answers of creation and rotation carry one. */
export interface EndpointWithSecret {
  readonly endpoint: WebhookEndpoint;
  readonly secret: string;
}

async function checkedUrl(deps: WebhookDeps, text: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookUrlRefused('not an absolute URL');
  }
  const refused = await refusedDestination(url, deps.rules, deps.resolve);
  if (refused !== undefined) throw new WebhookUrlRefused(refused);
  return url.toString();
}

const uniqueTypes = (types: readonly EventType[] | undefined) => [...new Set(types ?? [])];

export async function createEndpoint(
  deps: WebhookDeps,
  scope: EndpointScope,
  input: EndpointInput,
): Promise<EndpointWithSecret> {
  const url = await checkedUrl(deps, input.url);
  const publicId = newEndpointId();
  const secret = newWebhookSecret();
  // Counted and inserted under the partner and brand's lock: parallel registrations queue, so
  // the limit holds whatever arrives at once.
  await deps.db.transaction().execute(async (tx) => {
    await lockName(tx, `webhook-endpoints:${String(scope.partnerId)}:${scope.brandCode}`);
    if ((await repo.countEndpoints(tx, scope)) >= MAX_ENDPOINTS_PER_BRAND)
      throw new WebhookLimitReached(MAX_ENDPOINTS_PER_BRAND);
    await repo.insertEndpoint(tx, {
      ...scope,
      publicId,
      url,
      ...(input.description === undefined ? {} : { description: input.description }),
      eventTypes: uniqueTypes(input.eventTypes),
      enabled: input.enabled ?? true,
      secretSealed: sealWebhookSecret(deps.keySecret, publicId, secret),
      at: deps.clock().toISOString(),
    });
  });
  return { endpoint: await getEndpoint(deps, scope, publicId), secret };
}

export function listEndpoints(deps: WebhookDeps, scope: EndpointScope): Promise<WebhookEndpoint[]> {
  return repo.listEndpoints(deps.db, scope);
}

export async function getEndpoint(deps: WebhookDeps, scope: EndpointScope, id: string): Promise<WebhookEndpoint> {
  const endpoint = await repo.findEndpoint(deps.db, scope, id);
  if (!endpoint) throw new WebhookNotFound(id);
  return endpoint;
}

export interface EndpointPatch {
  readonly url?: string;
  readonly eventTypes?: readonly EventType[];
  /** null clears it. */
  readonly description?: string | null;
  readonly enabled?: boolean;
}

export async function updateEndpoint(
  deps: WebhookDeps,
  scope: EndpointScope,
  id: string,
  patch: EndpointPatch,
): Promise<WebhookEndpoint> {
  await getEndpoint(deps, scope, id);
  const url = patch.url === undefined ? undefined : await checkedUrl(deps, patch.url);
  await repo.updateEndpoint(
    deps.db,
    id,
    {
      ...(url === undefined ? {} : { url }),
      ...(patch.description === undefined ? {} : { description: patch.description }),
      ...(patch.eventTypes === undefined ? {} : { eventTypes: uniqueTypes(patch.eventTypes) }),
      ...(patch.enabled === undefined ? {} : { enabled: patch.enabled }),
    },
    deps.clock().toISOString(),
  );
  return getEndpoint(deps, scope, id);
}

/** Soft delete: no more deliveries; its attempts stay readable on the events. */
export async function deleteEndpoint(deps: WebhookDeps, scope: EndpointScope, id: string): Promise<void> {
  await getEndpoint(deps, scope, id);
  await repo.deleteEndpoint(deps.db, id, deps.clock().toISOString());
}

/**
 * A new secret; the one it replaces keeps signing (a second `v1,…` signature) for
 * `overlapSeconds` (default WEBHOOK_SECRET_OVERLAP_SECONDS), so receivers can switch without loss.
 */
export async function rotateSecret(
  deps: WebhookDeps,
  scope: EndpointScope,
  id: string,
  overlapSeconds?: number,
): Promise<EndpointWithSecret & { previousSecretExpiresAt: string }> {
  await getEndpoint(deps, scope, id);
  const now = deps.clock();
  const secret = newWebhookSecret();
  const previousSecretExpiresAt = new Date(
    now.getTime() + (overlapSeconds ?? deps.secretOverlapSeconds) * 1000,
  ).toISOString();
  await deps.db.transaction().execute(async (tx) => {
    const current = await repo.endpointForDelivery(tx, id);
    if (!current) throw new WebhookNotFound(id);
    await repo.rotateSecrets(tx, id, {
      secretSealed: sealWebhookSecret(deps.keySecret, id, secret),
      previousSealed: current.secrets.current,
      previousExpiresAt: previousSecretExpiresAt,
      at: now.toISOString(),
    });
  });
  return { endpoint: await getEndpoint(deps, scope, id), secret, previousSecretExpiresAt };
}

/**
 * Records a `webhook.test` event for this endpoint only; it is delivered like any other. Paid from
 * the partner's test events of the UTC hour in the same transaction: past the budget 429 and
 * nothing recorded, and parallel requests never pass it.
 */
export async function sendTestEvent(deps: WebhookDeps, scope: EndpointScope, id: string): Promise<string> {
  const endpoint = await getEndpoint(deps, scope, id);
  if (!endpoint.enabled) throw new WebhookDisabled(id);
  const at = deps.clock().toISOString();
  const limit = deps.testEventsPerHour;
  const budget = { scope: `webhook-tests:partner:${String(scope.partnerId)}`, window: 'hour', limit } as const;
  const eventId = await deps.db.transaction().execute(async (tx) => {
    await purgeSendBudgets(tx, at);
    if (!(await takeSendBudget(tx, budget, 1, at))) throw new WebhookTestsLimited(limit, secondsLeftIn('hour', at));
    return recordEvent(tx, {
      type: 'webhook.test',
      sourceKey: `webhook.test:${id}:${randomUUID()}`,
      partnerId: scope.partnerId,
      brandCode: scope.brandCode,
      endpointId: id,
      at,
      data: { webhookId: id, message: 'A test event: your endpoint receives and verifies webhooks.' },
    });
  });
  if (eventId === undefined) throw new Error('a test event with a fresh cause was not recorded');
  return eventId;
}
