import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { parseDelays } from './webhooks.js';

describe('webhook configuration', () => {
  it('defaults to the Standard Webhooks retry schedule and 24 h of rotation overlap', () => {
    const { webhooks } = loadConfig({});
    expect(webhooks.retryDelaysMs).toEqual(
      [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400].map((s) => s * 1000),
    );
    expect(webhooks).toMatchObject({ timeoutMs: 10_000, disableAfterMs: 3 * 86_400_000, secretOverlapSeconds: 86_400 });
  });

  it('defaults to 16 lanes per process, 4 in flight per partner, and hourly budgets of 60 test events and 2000 redeliveries', () => {
    const { webhooks } = loadConfig({});
    expect(webhooks).toMatchObject({
      concurrency: 16,
      concurrencyPerPartner: 4,
      budgets: { testEventsPerHour: 60, redeliveriesPerHour: 2000 },
    });
    const set = loadConfig({
      WEBHOOK_CONCURRENCY: '8',
      WEBHOOK_CONCURRENCY_PER_PARTNER: '2',
      WEBHOOK_TEST_EVENTS_PER_PARTNER_PER_HOUR: '0',
      WEBHOOK_REDELIVERIES_PER_PARTNER_PER_HOUR: '10',
    }).webhooks;
    expect(set).toMatchObject({
      concurrency: 8,
      concurrencyPerPartner: 2,
      budgets: { testEventsPerHour: 0, redeliveriesPerHour: 10 },
    });
    expect(() => loadConfig({ WEBHOOK_CONCURRENCY_PER_PARTNER: '0' })).toThrow(/WEBHOOK_CONCURRENCY_PER_PARTNER/);
  });

  it('refuses an attempt timeout the outbox lease would not outlast', () => {
    expect(() => loadConfig({ OUTBOX_LEASE_SECONDS: '10', WEBHOOK_TIMEOUT_MS: '10000' })).toThrow(/WEBHOOK_TIMEOUT_MS/);
    expect(loadConfig({ OUTBOX_LEASE_SECONDS: '11', WEBHOOK_TIMEOUT_MS: '10000' }).webhooks.timeoutMs).toBe(10_000);
  });

  it('reads a schedule in ms, s, m and h', () => {
    expect(parseDelays('0ms, 250ms,2s,1m,1h')).toEqual([0, 250, 2000, 60_000, 3_600_000]);
    expect(loadConfig({ WEBHOOK_RETRY_DELAYS: '1s,2s' }).webhooks.retryDelaysMs).toEqual([1000, 2000]);
  });

  it('refuses a malformed schedule and an overlap above 7 days, naming the variable', () => {
    expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS: '5 minutes' })).toThrow(/WEBHOOK_RETRY_DELAYS/);
    expect(() => loadConfig({ WEBHOOK_SECRET_OVERLAP_SECONDS: '604801' })).toThrow(/WEBHOOK_SECRET_OVERLAP_SECONDS/);
  });
});
