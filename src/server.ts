import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from './app.js';
import type { AppConfig } from './config/config.js';
import type { AppContext, Clock } from './context.js';
import { connectDatabase } from './db/connect.js';
import type { Db } from './db/database.js';
import { prepareSchema } from './db/migrate.js';
import { importDemoCatalogue } from './catalogue/import.js';
import { prepareIdentity } from './auth/setup.js';
import { purchaseDepsFor } from './purchases/deps.js';
import { recoverPurchases } from './purchases/recovery.js';
import { startRecoverySweep } from './purchases/sweeper.js';
import { changeDepsFor } from './policy-changes/deps.js';
import { recoverPolicyChanges } from './policy-changes/recovery.js';
import { ConnectionTracker, type OpenConnections } from './http/server/listener.js';
import { deliveryDepsOf, documentDeliveryHandlers } from './documents/delivery.js';
import { webhookDeliveryDepsOf, webhookDeliveryKinds } from './events/webhooks/delivery.js';
import { publishEventHandler } from './events/publish.js';
import { PUBLISH_EVENT } from './events/repository.js';
import { enqueueDeliveriesOf } from './events/webhooks/fan-out.js';
import type { OutboxHandler, OutboxKind } from './db/outbox/kinds.js';
import { startOutboxWorker, type OutboxWorkerOptions } from './db/outbox/worker.js';
import { stripeWebhookDepsFor } from './payments/stripe/webhooks/deps.js';
import { applyDueEvents } from './payments/stripe/webhooks/service.js';
import { failureName } from './db/refused-values.js';
import { purgeBatch } from './screening/purge.js';
import { screeningPurgeDepsFor } from './screening/purge-port.js';
import { seedDemoOperators } from './operators/demo.js';
import { purgeOperatorLeftovers } from './operators/purge.js';

export interface RunningServer {
  readonly app: FastifyInstance;
  /** Where the server listens, e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  /**
   * Stops the outbox workers' leasing at once (their deliveries get OUTBOX_STOP_GRACE_MS, then
   * webhook POSTs are aborted and given back), drains (readiness fails, responses say
   * `Connection: close`) for the configured time, then
   * stops accepting, answers what is in flight or arrives on open connections, closes idle
   * connections (http/server/listener.ts) and closes the database. Idempotent.
   */
  close(): Promise<void>;
  /** What the shutdown still waits for: logged if its hard deadline ends the process. */
  openConnections(): OpenConnections;
}

export interface StartOptions {
  readonly clock?: Clock;
  readonly logger?: FastifyServerOptions['logger'];
  /** An already open database (tests); otherwise the configured one is opened and owned. */
  readonly db?: Db;
}

/** Everything a fresh or upgraded database needs before the first request. */
export async function prepareDatabase(context: AppContext): Promise<void> {
  await prepareSchema(context.db, context.config.migrateOnStart);
  if (context.config.demoData) await importDemoCatalogue(context.db, context.config.catalogueDir);
  await prepareIdentity(context);
  if (context.config.demoData) await seedDemoOperators(context);
}

/** A worker's kinds and its lanes (worker.ts): its share of the process's delivery work. */
export interface OutboxPool {
  readonly handlers: Record<string, OutboxHandler | OutboxKind>;
  readonly lanes: Partial<Pick<OutboxWorkerOptions, 'concurrency' | 'inFlightPerShare'>>;
}

/** Lanes of the publishing pool: publishing is database work only, committed a lease's batch at a time. */
const PUBLISH_LANES = 2;

/** Screenings a sweep purges at most: a sweep every PURCHASE_RECOVERY_INTERVAL_SECONDS keeps far ahead of sales. */
const SCREENING_PURGE_BATCH = 100;
/** Expired console sessions (and idle sign-in counters) a sweep deletes at most. */
const OPERATOR_PURGE_BATCH = 500;

/**
 * The outbox's pools of lanes in every server process (tests run workers with the same), one per
 * kind, each with its own passes and leases: e-mails (PDF rendering, SMTP), event publishing, and
 * webhook POSTs, so neither a slow receiver nor a queue of e-mails to render holds up another kind;
 * within webhooks each partner holds at most WEBHOOK_CONCURRENCY_PER_PARTNER.
 */
export function outboxPools(
  context: AppContext,
  log?: FastifyBaseLogger,
): { emails: OutboxPool; events: OutboxPool; webhooks: OutboxPool } {
  const { webhooks } = context.config;
  return {
    emails: { handlers: documentDeliveryHandlers(deliveryDepsOf(context, log)), lanes: {} },
    events: {
      // Publishes recorded events to the pull feed, then one delivery per subscribed endpoint.
      handlers: { [PUBLISH_EVENT]: publishEventHandler({ clock: context.clock, fanOutAll: enqueueDeliveriesOf }) },
      lanes: { concurrency: PUBLISH_LANES },
    },
    webhooks: {
      // Webhook deliveries (issue 21): signed POSTs on the Standard Webhooks retry schedule.
      handlers: webhookDeliveryKinds(webhookDeliveryDepsOf(context)),
      lanes: { concurrency: webhooks.concurrency, inFlightPerShare: webhooks.concurrencyPerPartner },
    },
  };
}

export async function startServer(config: AppConfig, options: StartOptions = {}): Promise<RunningServer> {
  const db = options.db ?? connectDatabase(config.database);
  const context: AppContext = { config, db, clock: options.clock ?? (() => new Date()) };
  let app: FastifyInstance | undefined;
  let connections: ConnectionTracker | undefined;
  let stopWorkers = (): Promise<unknown> => Promise.resolve();
  try {
    await prepareDatabase(context);
    app = await buildApp(context, { logger: options.logger });
    connections = new ConnectionTracker(app.server);
    // Finish or undo purchases a previous process left in flight, before taking new ones.
    const recoveryDeps = purchaseDepsFor(context, app.paymentGateways, app.log);
    await recoverPurchases(recoveryDeps, { graceSeconds: config.purchaseRecoveryGraceSeconds });
    // The same for amendments and cancellations being confirmed (same grace: the same kind of work).
    const changeDeps = changeDepsFor(context, app.paymentGateways, app.log);
    const recoverChanges = () =>
      recoverPolicyChanges(changeDeps, { graceSeconds: config.purchaseRecoveryGraceSeconds });
    await recoverChanges();
    // Stripe events whose application a crash cut, that failed or waited for our own step (same grace).
    const stripeDeps = stripeWebhookDepsFor(context, app.paymentGateways, app.log);
    const applyStripeEvents = () => applyDueEvents(stripeDeps);
    await applyStripeEvents();
    // Screenings' health data past its retention, a batch per sweep (screening/purge.ts); a failure waits for the next.
    const purgeDeps = screeningPurgeDepsFor(context);
    const purgeLog = app.log;
    const purgeScreenings = () =>
      purgeBatch(purgeDeps, SCREENING_PURGE_BATCH).catch((error: unknown) => {
        purgeLog.warn({ err: error, reason: failureName(error) }, 'screening purge could not run');
      });
    // Expired console sessions and idle sign-in counters (operators/purge.ts); a batch per sweep.
    const purgeOperators = () =>
      purgeOperatorLeftovers(context, OPERATOR_PURGE_BATCH).catch((error: unknown) => {
        purgeLog.warn({ err: error, reason: failureName(error) }, 'operator purge could not run');
      });
    // Then keep doing so while serving (other processes may die); stopped before the database closes.
    const sweep = startRecoverySweep(recoveryDeps, {
      intervalSeconds: config.purchaseRecoveryIntervalSeconds,
      graceSeconds: config.purchaseRecoveryGraceSeconds,
      alsoRecover: async () => {
        await recoverChanges();
        await applyStripeEvents();
        await purgeScreenings();
        await purgeOperators();
      },
    });
    app.addHook('preClose', async () => sweep.stop());
    // The outbox's delivery workers, one per pool (e-mails, publishing, webhooks); stopped likewise.
    // The config refuses the crash-test hook in production.
    const { crashAfter, ...outboxOptions } = config.outbox;
    const log = app.log;
    const workers = Object.values(outboxPools(context, log)).map((pool) =>
      startOutboxWorker({ db, clock: context.clock, log }, pool.handlers, {
        ...outboxOptions,
        ...pool.lanes,
        ...(config.env !== 'production' && crashAfter ? { crashAfter } : {}),
      }),
    );
    // Each worker's stop is idempotent and bounded (OUTBOX_STOP_GRACE_MS, then webhook POSTs aborted).
    stopWorkers = () => Promise.all(workers.map((worker) => worker.stop()));
    app.addHook('preClose', async () => {
      await stopWorkers();
    });
    if (!options.db) app.addHook('onClose', async () => db.destroy());
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app?.close();
    if (!options.db) await db.destroy();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const running = app;
  const listener = connections;
  let closing: Promise<void> | undefined;
  return {
    app: running,
    url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    close: () =>
      (closing ??= (async () => {
        running.lifecycle.draining = true;
        // No new delivery from here: what is leased now is delivered within the grace or given back.
        void stopWorkers();
        await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
        running.lifecycle.closing = true;
        // New requests get 503 until arrivals stop: half the shutdown's time at most, the rest for those in flight.
        await listener.stop(config.shutdownTimeoutMs);
        await running.close();
      })()),
    openConnections: () => listener.open,
  };
}
