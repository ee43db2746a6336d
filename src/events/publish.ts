import type { Clock } from '../context.js';
import type { Db, Tx } from '../db/database.js';
import type { CommittedKind } from '../db/outbox/kinds.js';
import type { PartnerEvent } from './model.js';
import { lockEvents, publishEvents } from './repository-feed.js';

/** Queues one event's deliveries, in the publishing transaction. */
export type FanOut = (tx: Tx, event: PartnerEvent, at: string) => Promise<unknown>;
/** Queues the deliveries of every event published together (webhooks/fan-out.ts `enqueueDeliveriesOf`). */
export type FanOutAll = (tx: Tx, events: readonly PartnerEvent[], at: string) => Promise<unknown>;

export type PublishDeps = {
  readonly clock: Clock;
  /** Unused: the worker's transaction carries the work (kept for callers that name it). */
  readonly db?: Db;
} & ({ readonly fanOut: FanOut } | { readonly fanOutAll: FanOutAll });

/** What a `partner-event` outbox message carries (events/repository.ts recordEvent). */
interface PublishPayload {
  readonly eventId: string;
}

/**
 * The outbox kind `partner-event`: the events of the messages leased together are published in
 * ONE transaction (the worker's, with their SENT marks): each takes its feed position (if it has
 * none yet: a redelivered message keeps the first one) and its deliveries are queued. Both or
 * neither: an event is in the feed exactly when its webhooks are on their way.
 */
export function publishEventHandler(deps: PublishDeps): CommittedKind {
  const fanOutAll: FanOutAll =
    'fanOutAll' in deps
      ? deps.fanOutAll
      : async (tx, events, at) => {
          for (const event of events) await deps.fanOut(tx, event, at);
        };
  return {
    async commit(tx, messages) {
      const eventIds = messages.map((message) => (message.payload as PublishPayload).eventId);
      const locked = new Map((await lockEvents(tx, eventIds)).map((event) => [event.id, event]));
      // Recorded in the same commit as its message: missing means a defect (retried, then FAILED).
      const missing = eventIds.find((id) => !locked.has(id));
      if (missing !== undefined) throw new Error(`partner event ${missing} is missing`);
      const events = eventIds.map((id) => locked.get(id) as PartnerEvent);
      const at = deps.clock().toISOString();
      const fresh = await publishEvents(
        tx,
        events.filter((event) => event.feedPosition === undefined),
        at,
      );
      const positioned = new Map(fresh.map((event) => [event.id, event]));
      await fanOutAll(
        tx,
        events.map((event) => positioned.get(event.id) ?? event),
        at,
      );
    },
  };
}
