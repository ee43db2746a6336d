import type { FastifyBaseLogger } from 'fastify';
import type { Clock, AppContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { eventBody, findEvent, findEvents } from '../repository.js';
import type { PartnerEvent } from '../model.js';
import { groupedWrites } from '../../db/grouped-writes.js';
import type { OutboxMessage } from '../../db/outbox/repository.js';
import type { OutboxKind, SendingKind } from '../../db/outbox/kinds.js';
import { systemResolver, type AddressRules, type Resolver } from './address-guard.js';
import type { WebhookConfig } from '../../config/webhooks.js';
import { DeliveryAbandoned, DeliveryFailed, DeliveryInterrupted, EndpointDisabled } from './errors.js';
import type { DeliveryPayload } from './fan-out.js';
import {
  disableEndpoint,
  endpointForDelivery,
  endpointsForDelivery,
  markFailing,
  markHealthy,
  type DeliveryEndpoint,
} from './repository.js';
import { recordAttempts, WEBHOOK_DELIVERY, type NewAttempt } from './repository-attempts.js';
import type { SealedSecrets, WebhookEndpoint } from './model.js';
import { openWebhookSecret, signedHeaders } from './secrets.js';
import { postOnce, type SendResult } from './send.js';

export interface DeliveryDeps {
  readonly db: Db;
  readonly clock: Clock;
  /** KEY_ENCRYPTION_SECRET: opens the signing secrets. */
  readonly keySecret: string;
  readonly rules: AddressRules;
  readonly resolve: Resolver;
  readonly config: WebhookConfig;
  readonly log?: Pick<FastifyBaseLogger, 'warn'>;
}

export const webhookDeliveryDepsOf = (
  context: AppContext,
  resolve: Resolver = systemResolver,
  log?: Pick<FastifyBaseLogger, 'warn'>,
): DeliveryDeps => ({
  ...(log ? { log } : {}),
  db: context.db,
  clock: context.clock,
  keySecret: context.config.auth.keyEncryptionSecret,
  rules: { production: context.config.env === 'production' },
  resolve,
  config: context.config.webhooks,
});

/** A delivery whose event is gone (never expected): nothing to send, ever. */
class EventMissing extends Error {
  readonly permanent = true;
  constructor() {
    super('the event of this delivery does not exist');
    this.name = 'EventMissing';
  }
}

/** An endpoint's signing secrets, opened: the previous one with the end of its overlap. */
interface OpenedSecrets {
  readonly current: string;
  readonly previous?: { readonly secret: string; readonly expiresAt: string };
}

function openSecrets(deps: DeliveryDeps, endpointId: string, sealed: SealedSecrets): OpenedSecrets {
  const open = (s: string) => openWebhookSecret(deps.keySecret, endpointId, s);
  const { previous, previousExpiresAt } = sealed;
  return {
    current: open(sealed.current),
    ...(previous === undefined || previousExpiresAt === undefined
      ? {}
      : { previous: { secret: open(previous), expiresAt: previousExpiresAt } }),
  };
}

/** The secrets that sign now: the current one, and the previous one until its overlap ends. */
function signingSecrets(opened: OpenedSecrets, now: Date): string[] {
  const previous = opened.previous;
  return previous && previous.expiresAt > now.toISOString() ? [opened.current, previous.secret] : [opened.current];
}

/** An endpoint to deliver to, its secrets opened. */
interface Target {
  readonly endpoint: WebhookEndpoint;
  readonly secrets: OpenedSecrets;
}

function targetOf(deps: DeliveryDeps, found: DeliveryEndpoint): Target {
  return { endpoint: found.endpoint, secrets: openSecrets(deps, found.endpoint.id, found.secrets) };
}

/**
 * What the deliveries leased together read at once (the outbox kind's `prepare`): their events, and
 * their endpoints with the secrets opened once per endpoint, two statements for the lot.
 */
export interface DeliveryBatch {
  readonly events: ReadonlyMap<string, PartnerEvent>;
  readonly targets: ReadonlyMap<string, Target>;
}

async function readBatch(deps: DeliveryDeps, messages: readonly OutboxMessage[]): Promise<DeliveryBatch> {
  const payloads = messages.map((message) => message.payload as DeliveryPayload);
  const [events, endpoints] = await Promise.all([
    findEvents(
      deps.db,
      payloads.map((p) => p.eventId),
    ),
    endpointsForDelivery(
      deps.db,
      payloads.map((p) => p.endpointId),
    ),
  ]);
  const targets = new Map([...endpoints].map(([id, found]) => [id, targetOf(deps, found)] as const));
  return { events, targets };
}

/** Records one attempt (in the kind: grouped with other lanes' attempts in one statement). */
type RecordAttempt = (attempt: NewAttempt) => Promise<unknown>;

const succeeded = (r: SendResult) => r.statusCode !== undefined && r.statusCode >= 200 && r.statusCode < 300;

function failureCode(r: SendResult): string {
  if (r.failure !== undefined) return r.failure;
  const status = r.statusCode ?? 0;
  return status >= 300 && status < 400 ? `REDIRECT_${status}` : `HTTP_${status}`;
}

/**
 * Delivers one event to one endpoint (an outbox message of kind `webhook-delivery`): signed per
 * Standard Webhooks with the event id as `webhook-id` (the same on every retry), every attempt
 * recorded. 2xx: delivered. 410: the endpoint is disabled (GONE) and the delivery abandoned.
 * Anything else: retried on the schedule, unless the endpoint has failed for longer than
 * WEBHOOK_DISABLE_AFTER_DAYS, which disables it (FAILING).
 */
export async function deliverWebhook(
  deps: DeliveryDeps,
  message: OutboxMessage,
  batch?: DeliveryBatch,
  record: RecordAttempt = (attempt) => recordAttempts(deps.db, [attempt]),
  signal?: AbortSignal,
): Promise<void> {
  const { eventId, endpointId } = message.payload as DeliveryPayload;
  const event = batch?.events.get(eventId) ?? (await findEvent(deps.db, eventId));
  if (!event) throw new EventMissing();
  const found = batch?.targets.get(endpointId) ?? (await readTarget(deps, endpointId));
  if (!found || found.endpoint.deleted || !found.endpoint.enabled) throw new EndpointDisabled();
  const now = deps.clock();
  const body = eventBody(event);
  const headers = signedHeaders(signingSecrets(found.secrets, now), { id: event.id, at: now, body });
  const result = await postOnce(new URL(found.endpoint.url), body, headers, {
    rules: deps.rules,
    resolve: deps.resolve,
    timeoutMs: deps.config.timeoutMs,
    ...(signal ? { signal } : {}),
  });
  // Cut short by a stop: no attempt to show, the endpoint not failing; the worker gives the message back.
  if (result.failure === 'ABORTED') throw new DeliveryInterrupted();
  const ok = succeeded(result);
  // The outcome is decided by the answer; a failure to record it must not turn a delivery into a retry.
  await record({
    eventId,
    endpointId,
    attemptedAt: now.toISOString(),
    outcome: ok ? 'SUCCEEDED' : 'FAILED',
    ...(result.statusCode === undefined ? {} : { statusCode: result.statusCode }),
    latencyMs: result.latencyMs,
    ...(ok ? {} : { error: failureCode(result) }),
    ...(result.excerpt === undefined ? {} : { responseExcerpt: result.excerpt }),
  }).catch((error: unknown) => deps.log?.warn({ err: error, eventId, endpointId }, 'webhook attempt not recorded'));
  // Healthy as read (the usual case): nothing to clear.
  if (ok) return found.endpoint.failingSince === undefined ? undefined : markHealthy(deps.db, endpointId);
  const at = deps.clock();
  if (result.statusCode === 410) {
    await disableEndpoint(deps.db, endpointId, 'GONE', at.toISOString());
    throw new DeliveryAbandoned('HTTP_410');
  }
  const since = await markFailing(deps.db, endpointId, now.toISOString());
  if (at.getTime() - Date.parse(since) >= deps.config.disableAfterMs) {
    await disableEndpoint(deps.db, endpointId, 'FAILING', at.toISOString());
    throw new DeliveryAbandoned('FAILING');
  }
  throw new DeliveryFailed(failureCode(result));
}

async function readTarget(deps: DeliveryDeps, endpointId: string): Promise<Target | undefined> {
  const found = await endpointForDelivery(deps.db, endpointId);
  return found && targetOf(deps, found);
}

/**
 * The outbox kind of webhook deliveries (worker.ts `SendingKind`): the events and endpoints of the
 * deliveries leased together read at once, every attempt recorded (the lanes' attempts grouped in
 * one statement, each lane waiting for its own before it goes on), and the retry schedule.
 */
export function webhookDeliveryKind(deps: DeliveryDeps): SendingKind<DeliveryBatch> {
  const record = groupedWrites((attempts: readonly NewAttempt[]) => recordAttempts(deps.db, attempts));
  return {
    prepare: (messages) => readBatch(deps, messages),
    deliver: (message, batch, signal) => deliverWebhook(deps, message, batch, record, signal),
    retryDelaysMs: deps.config.retryDelaysMs,
  };
}

/** `{ 'webhook-delivery': kind }`, to spread into the worker's handlers. */
export const webhookDeliveryKinds = (deps: DeliveryDeps): Record<string, OutboxKind> => ({
  [WEBHOOK_DELIVERY]: webhookDeliveryKind(deps),
});
