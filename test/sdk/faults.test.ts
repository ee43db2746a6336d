import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_CARD_TOKENS as CARDS } from '../../src/payments/sandbox/cards.js';
import { PartnerApiError } from '../../sdk/src/index.js';
import { DIALECT } from '../helpers/database.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { demoClient, readyPurchase, required, useSdkServer } from './support.js';

/** Issue 33: retries through injected faults, against a real server behind a local proxy. */
describe(`SDK: retries and refresh through faults (${DIALECT})`, () => {
  const getServer = useSdkServer();
  let proxy: FaultProxy;
  beforeAll(async () => {
    proxy = await startFaultProxy(getServer().url);
  });
  afterAll(async () => {
    await proxy.close();
  });
  beforeEach(() => {
    proxy.seen.length = 0;
    proxy.rule(() => 'pass');
  });

  it('a purchase whose answer is lost is retried with the same key: one policy', async () => {
    const client = demoClient(proxy.url);
    const { body } = await readyPurchase(client, CARDS.approved);
    let purchases = 0;
    proxy.rule((request) => (request.path.endsWith('/purchase') && purchases++ === 0 ? 'drop-answer' : 'pass'));
    const bought = await client.purchases.create(body);
    expect(bought.paymentResult).toBe('APPROVED');
    const sent = proxy.seen.filter((request) => request.path.endsWith('/purchase'));
    expect(sent).toHaveLength(2);
    const keys = sent.map((request) => request.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);

    const policyNumber = required(bought.quote?.policyNumber, 'policy number');
    let issued = 0;
    for await (const event of client.events.iterate()) {
      if (event.type === 'policy.issued' && JSON.stringify(event).includes(policyNumber)) issued++;
    }
    expect(issued).toBe(1);
    const quote = await client.quotes.get(required(bought.quote?.id, 'quote id'));
    expect(quote.policyNumber).toBe(policyNumber);
  });

  it('a 429 with Retry-After: 1 waits about a second before the retry', async () => {
    const client = demoClient(proxy.url);
    await client.auth.signIn();
    let plans = 0;
    proxy.rule((request) =>
      request.path.includes('/plans') && plans++ === 0
        ? { status: 429, headers: { 'retry-after': '1' }, body: '{}' }
        : 'pass',
    );
    const plan = await client.products.plan({ planCode: 'COMP', partnerCode: 'DEMOA' });
    expect(plan.planId).toBeGreaterThan(0);
    const [limited, retried] = proxy.seen.filter((request) => request.path.includes('/plans'));
    expect(required(retried, 'the retry').at - required(limited, 'the 429').at).toBeGreaterThanOrEqual(900);
  });

  it('a 401 is met with one refresh, then the call succeeds', async () => {
    const client = demoClient(proxy.url);
    await client.auth.signIn();
    let plans = 0;
    proxy.rule((request) => (request.path.includes('/plans') && plans++ === 0 ? { status: 401, body: '{}' } : 'pass'));
    const plan = await client.products.plan({ planCode: 'COMP', partnerCode: 'DEMOA' });
    expect(plan.planId).toBeGreaterThan(0);
    const grants = proxy.seen
      .filter((request) => request.path.endsWith('/token'))
      .map((request) => new URLSearchParams(request.body).get('grant_type'));
    expect(grants).toEqual(['password', 'refresh_token']);
  });

  it('does not retry a POST that carries no key', async () => {
    const client = demoClient(proxy.url);
    proxy.rule((request) => (request.path.endsWith('/quote') ? { status: 503, body: '{}' } : 'pass'));
    await expect(readyPurchase(client, CARDS.approved)).rejects.toBeInstanceOf(PartnerApiError);
    expect(proxy.seen.filter((request) => request.path.endsWith('/quote'))).toHaveLength(1);
  });
});
