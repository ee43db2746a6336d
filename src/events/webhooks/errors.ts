import { WINDOW_SECONDS } from '../../db/budgets/windows.js';
import { Conflict, InvalidInput, NotFound, RateLimited, spentBudgetHeaders } from '../../kernel/errors.js';

/** A webhook id that is unknown, deleted, or another partner's or brand's (not told apart). */
export class WebhookNotFound extends NotFound {
  constructor(webhookId: string) {
    super('WEBHOOK_NOT_FOUND', `Webhook endpoint '${webhookId}' does not exist.`, {
      property: 'webhookId',
      value: webhookId,
    });
  }
}

/** A URL webhooks may not be sent to (scheme, credentials, or an address that is not public). */
export class WebhookUrlRefused extends InvalidInput {
  constructor(reason: string) {
    super('WEBHOOK_URL_REFUSED', `Webhooks cannot be sent to this URL (${reason}).`, { property: 'url' });
  }
}

/** The partner has the most endpoints a brand may have. */
export class WebhookLimitReached extends Conflict {
  constructor(limit: number) {
    super('WEBHOOK_LIMIT_REACHED', `At most ${limit} webhook endpoints per brand; delete one first.`);
  }
}

/**
 * Delivery to an endpoint that is disabled or deleted: fails the outbox message at once
 * (`permanent`); a redelivery after re-enabling makes it due again.
 */
export class EndpointDisabled extends Error {
  readonly permanent = true;
  readonly code = 'ENDPOINT_DISABLED';
  constructor() {
    super('the webhook endpoint is disabled or deleted');
    this.name = 'EndpointDisabled';
  }
}

/** A delivery attempt that failed for good (410 Gone, or failing too long): the endpoint is now disabled. */
export class DeliveryAbandoned extends Error {
  readonly permanent = true;
  constructor(readonly code: string) {
    super(`webhook delivery abandoned: ${code}`);
    this.name = 'DeliveryAbandoned';
  }
}

/** A failed delivery attempt, retried on the schedule. */
export class DeliveryFailed extends Error {
  constructor(readonly code: string) {
    super(`webhook delivery failed: ${code}`);
    this.name = 'DeliveryFailed';
  }
}

/** A test event asked of a disabled endpoint (it would not be delivered). */
export class WebhookDisabled extends Conflict {
  constructor(webhookId: string) {
    super('WEBHOOK_DISABLED', `Webhook endpoint '${webhookId}' is disabled; enable it first.`, {
      property: 'webhookId',
      value: webhookId,
    });
  }
}

/** The partner's test events for this UTC hour are spent. */
export class WebhookTestsLimited extends RateLimited {
  constructor(limit: number, retryAfterSeconds: number) {
    super(
      `At most ${limit} test events per partner per UTC hour; retry after ${retryAfterSeconds} s.`,
      spentBudgetHeaders(
        { name: 'webhook-tests', quota: limit, windowSeconds: WINDOW_SECONDS.hour },
        retryAfterSeconds,
      ),
    );
  }
}

/** The attempt was aborted because the process is stopping: neither the receiver's failure nor an attempt. */
export class DeliveryInterrupted extends Error {
  constructor() {
    super('webhook delivery interrupted by shutdown');
    this.name = 'DeliveryInterrupted';
  }
}
