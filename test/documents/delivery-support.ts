import { POLICY_DOCUMENTS } from '../../src/documents/messages.js';
import { startOutboxWorker, type OutboxWorker } from '../../src/db/outbox/worker.js';
import { outboxPools } from '../../src/server.js';
import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { startSmtpServer } from '../helpers/smtp-server.js';

export { startSmtpServer, type Received } from '../helpers/smtp-server.js';

/** The server's delivery worker of e-mails (same handler), without a timer: each `runOnce` is one pass. */
export function workerOf(t: TestApp): OutboxWorker {
  // The e-mails' kind only: partner events committed beside them are another kind's (test/events/).
  const handlers = { [POLICY_DOCUMENTS]: outboxPools(t.context).emails.handlers[POLICY_DOCUMENTS]! };
  return startOutboxWorker({ db: t.context.db, clock: t.context.clock }, handlers, {
    ...t.context.config.outbox,
    timer: false,
  });
}

/** The outbox rows of one kind, oldest first. */
export const outboxKeys = async (t: TestApp) =>
  (
    await t.context.db
      .selectFrom('outbox_message')
      .select(['message_key', 'state'])
      .where('kind', '=', POLICY_DOCUMENTS)
      .orderBy('id')
      .execute()
  ).map((r) => [r.message_key, r.state]);

/**
 * For a describe block: an app with demo data whose e-mails go to a real SMTP receiver started for
 * it (links under https://api.example, the clock at `now`); `use` is handed both once they run.
 */
export function useMailingApp(
  now: Date,
  use: (app: TestApp, smtp: Awaited<ReturnType<typeof startSmtpServer>>) => void,
): void {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let app: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await buildTestApp({
      env: { DEMO_DATA: 'true', SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'https://api.example' },
      clock: () => now,
    });
    use(app, smtp);
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });
}
