import type { Clock } from '../context.js';
import type { Db, Tx } from '../db/database.js';
import type { OutboxHandler } from '../outbox/worker.js';
import type { PartnerEvent } from './model.js';
import { lockEvent, publishEvent } from './repository-feed.js';

/** Queues the event's deliveries (webhooks/fan-out.ts `enqueueDeliveries`), in the publishing transaction. */
export type FanOut = (tx: Tx, event: PartnerEvent, at: string) => Promise<unknown>;

export interface PublishDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly fanOut: FanOut;
}

/** What a `partner-event` outbox message carries (events/repository.ts recordEvent). */
interface PublishPayload {
  readonly eventId: string;
}

/**
 * The outbox handler of kind `partner-event`: in ONE transaction the event takes its feed
 * position (if it has none yet: a redelivered message keeps the first one) and its deliveries are
 * queued. Both or neither: an event is in the feed exactly when its webhooks are on their way.
 */
export function publishEventHandler(deps: PublishDeps): OutboxHandler {
  return async (message) => {
    const { eventId } = message.payload as PublishPayload;
    await deps.db.transaction().execute(async (tx) => {
      const event = await lockEvent(tx, eventId);
      // Recorded in the same commit as its message: missing means a defect (retried, then FAILED).
      if (!event) throw new Error(`partner event ${eventId} is missing`);
      const at = deps.clock().toISOString();
      const published = event.feedPosition === undefined ? await publishEvent(tx, event, at) : event;
      await deps.fanOut(tx, published, at);
    });
  };
}
