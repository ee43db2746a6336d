import { bearer, purchases, type Scenario } from './scenario.js';
import { registerBenchReceiver } from './webhook-receiver.js';

/** The rows of partner events: the purchase delivering its events, and every webhook and event endpoint. */
export const EVENT_SCENARIOS: Scenario[] = [
  {
    name: 'purchaseWithWebhooks',
    description:
      'The purchaseWithDocuments row with a webhook endpoint registered for every event type (a receiver in the bench process answering 204): the worker also publishes policy.issued, payment.captured and documents.sent and delivers each signed; CPU per purchase counted until the outbox is empty.',
    outboxWorker: true,
    prepare: async (api, _fixtures, run) => {
      await registerBenchReceiver(api, await bearer(api));
      return purchases(api, run, 'purchaseWithWebhooks');
    },
  },
];
