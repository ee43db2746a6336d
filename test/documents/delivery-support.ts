import { startOutboxWorker, type OutboxWorker } from '../../src/outbox/worker.js';
import { outboxHandlers } from '../../src/server.js';
import type { TestApp } from '../helpers/app.js';

export { startSmtpServer, type Received } from '../helpers/smtp-server.js';

/** The server's delivery worker (same handlers), without a timer: each `runOnce` is one pass. */
export function workerOf(t: TestApp): OutboxWorker {
  return startOutboxWorker({ db: t.context.db, clock: t.context.clock }, outboxHandlers(t.context), {
    ...t.context.config.outbox,
    timer: false,
  });
}

/** The outbox rows of one kind, oldest first. */
export const outboxKeys = async (t: TestApp) =>
  (await t.context.db.selectFrom('outbox_message').select(['message_key', 'state']).orderBy('id').execute()).map(
    (r) => [r.message_key, r.state],
  );
