import { WINDOW_SECONDS } from '../db/budgets/windows.js';
import { InvalidInput, NotFound, RateLimited, spentBudgetHeaders } from '../kernel/errors.js';

/** An event id that is not one of this partner's events under this brand (or not an event at all). */
export class EventNotFound extends NotFound {
  constructor(eventId: string, property = 'eventId') {
    super('EVENT_NOT_FOUND', `Event '${eventId}' does not exist.`, { property, value: eventId });
  }
}

/** A redelivery of a `webhook.test` event to another endpoint than its own (it has no delivery there). */
export class EventWebhookNotFound extends NotFound {
  constructor(webhookId: string) {
    super('WEBHOOK_NOT_FOUND', `Webhook '${webhookId}' has no delivery of this event.`, {
      property: 'webhookId',
      value: webhookId,
    });
  }
}

/** A bulk redelivery's time range that is empty, reversed or covers too many events. */
export class InvalidRedeliveryRange extends InvalidInput {
  constructor(code: 'INVALID_TIME_RANGE' | 'REDELIVERY_RANGE_TOO_LARGE', message: string) {
    super(code, message, { property: 'to' });
  }
}

/** The partner's budget of redelivered deliveries for this UTC hour cannot pay for the request. */
export class RedeliveriesLimited extends RateLimited {
  constructor(limit: number, retryAfterSeconds: number) {
    super(
      `At most ${limit} deliveries may be redelivered per partner per UTC hour, and fewer than this request's are left; retry after ${retryAfterSeconds} s, or redeliver fewer.`,
      spentBudgetHeaders({ name: 'redeliveries', quota: limit, windowSeconds: WINDOW_SECONDS.hour }, retryAfterSeconds),
    );
  }
}
