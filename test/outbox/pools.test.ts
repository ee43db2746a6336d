import { describe, expect, it } from 'vitest';
import { POLICY_DOCUMENTS } from '../../src/documents/messages.js';
import { PUBLISH_EVENT } from '../../src/events/repository.js';
import { WEBHOOK_DELIVERY } from '../../src/events/webhooks/repository-attempts.js';
import { DELIVERED_KINDS } from '../../src/outbox-kinds.js';
import { outboxPools } from '../../src/server.js';
import { buildTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';

describe(`a server's outbox pools (${DIALECT})`, () => {
  it('give each kind lanes of its own, and the delivery lag covers every kind they deliver', async () => {
    const t = await buildTestApp();
    try {
      const pools = outboxPools(t.context);
      // Publishing never waits for a lane behind e-mails to render, nor e-mails behind a receiver.
      expect(Object.values(pools).map((pool) => Object.keys(pool.handlers))).toEqual([
        [POLICY_DOCUMENTS],
        [PUBLISH_EVENT],
        [WEBHOOK_DELIVERY],
      ]);
      expect(Object.values(pools).flatMap((pool) => Object.keys(pool.handlers))).toEqual([...DELIVERED_KINDS]);
    } finally {
      await t.close();
    }
  });
});
