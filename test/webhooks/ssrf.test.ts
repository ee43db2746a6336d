import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { checkAnswers } from '../helpers/contract/taps.js';
import type { AppContext } from '../../src/context.js';
import { findMessage } from '../../src/db/outbox/repository.js';
import type { Resolver } from '../../src/events/webhooks/address-guard.js';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import {
  attemptsOf,
  startWebhookReceiver,
  verifyWebhook,
  webhookWorker,
  webhooksPath,
  type WebhookReceiver,
} from './support.js';

/** DNS as the test says: names → addresses (an unknown name does not resolve). */
function fakeDns(table: Record<string, string[]>): Resolver {
  return (hostname) => {
    const addresses = table[hostname.toLowerCase()];
    if (!addresses) return Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
}

const PUBLIC = '93.184.216.34';

describe(`webhook URL safety in production (${DIALECT})`, () => {
  const testApp = useTestApp();
  const dns: Record<string, string[]> = {
    'hooks.partner.example': [PUBLIC],
    'loopback.partner.example': ['127.0.0.1'],
    'mixed.partner.example': [PUBLIC, '10.1.2.3'],
    'metadata.partner.example': ['169.254.169.254'],
    'mapped.partner.example': ['::ffff:10.0.0.1'],
  };
  let production: FastifyInstance;
  let productionContext: AppContext;
  beforeAll(async () => {
    // Production refuses the sandbox payment gateway at config time, so only the app is built as production.
    const { context } = testApp();
    productionContext = { ...context, config: { ...context.config, env: 'production' } };
    production = await buildApp(productionContext, { logger: false, webhookResolver: fakeDns(dns) });
    await production.ready();
    checkAnswers(production);
  });
  afterAll(async () => {
    await production.close();
  });

  const register = async (url: string) =>
    production.inject({
      method: 'POST',
      url: webhooksPath(),
      headers: await bearerFor(testApp(), 'brandau'),
      payload: { url },
    });

  it.each([
    ['loopback IPv4', 'https://127.0.0.1/hooks'],
    ['loopback IPv4, other address', 'https://127.1.2.3/hooks'],
    ['loopback IPv6', 'https://[::1]/hooks'],
    ['private 10/8', 'https://10.0.0.1/hooks'],
    ['private 172.16/12', 'https://172.16.5.4/hooks'],
    ['private 172.31', 'https://172.31.255.254/hooks'],
    ['private 192.168/16', 'https://192.168.1.1/hooks'],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data'],
    ['link-local IPv6', 'https://[fe80::1]/hooks'],
    ['unique-local fd00::/8', 'https://[fd00::1]/hooks'],
    ['unique-local fc00::/7', 'https://[fc12::1]/hooks'],
    ['CGNAT 100.64/10', 'https://100.64.0.1/hooks'],
    ['unspecified', 'https://0.0.0.0/hooks'],
    ['unspecified IPv6', 'https://[::]/hooks'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hooks'],
    ['IPv4-compatible metadata address', 'https://[::a9fe:a9fe]/hooks'],
    ['IPv4-mapped private', 'https://[::ffff:192.168.0.1]/hooks'],
    ['multicast', 'https://224.0.0.1/hooks'],
    ['broadcast', 'https://255.255.255.255/hooks'],
    ['reserved', 'https://240.0.0.1/hooks'],
    ['NAT64 of loopback', 'https://[64:ff9b::7f00:1]/hooks'],
    ['decimal loopback', 'https://2130706433/hooks'],
    ['http scheme', `http://${PUBLIC}/hooks`],
    ['other scheme', 'ftp://hooks.partner.example/x'],
    ['user and password', 'https://user:pass@hooks.partner.example/hooks'],
    ['user only', 'https://user@hooks.partner.example/hooks'],
    ['localhost', 'https://localhost/hooks'],
    ['localhost with a dot', 'https://localhost./hooks'],
    ['a .localhost name', 'https://api.localhost/hooks'],
    ['an .internal name', 'https://metadata.google.internal/computeMetadata'],
    ['a name without a dot', 'https://intranet/hooks'],
    ['a name resolving to 127.0.0.1', 'https://loopback.partner.example/hooks'],
    ['a name with one private address among public ones', 'https://mixed.partner.example/hooks'],
    ['a name resolving to the metadata address', 'https://metadata.partner.example/hooks'],
    ['a name resolving to an IPv4-mapped private address', 'https://mapped.partner.example/hooks'],
    ['a name that does not resolve', 'https://nowhere.partner.example/hooks'],
  ])('refuses %s at registration: %s', async (_what, url) => {
    const response = await register(url);
    expect(response.statusCode).toBe(400);
    expect(response.json().validation.errors[0]).toMatchObject({ code: 'WEBHOOK_URL_REFUSED', property: 'url' });
  });

  it('accepts https to a name resolving to public addresses only', async () => {
    expect((await register('https://hooks.partner.example/hooks')).statusCode).toBe(201);
    expect((await register(`https://${PUBLIC}/hooks`)).statusCode).toBe(201);
  });

  it('refuses the same change by PATCH', async () => {
    const created = (await register('https://hooks.partner.example/patch')).json<{ webhookId: string }>();
    const response = await production.inject({
      method: 'PATCH',
      url: `${webhooksPath()}/${created.webhookId}`,
      headers: await bearerFor(testApp(), 'brandau'),
      payload: { url: 'https://loopback.partner.example/hooks' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().validation.errors[0]).toMatchObject({ code: 'WEBHOOK_URL_REFUSED', property: 'url' });
  });

  it('refuses at delivery a name that resolved to a public address at registration and now to 127.0.0.1 (DNS rebinding)', async () => {
    const t = testApp();
    const receiver = await startWebhookReceiver();
    try {
      const port = new URL(receiver.url).port;
      const rebinding = { 'rebind.partner.example': [PUBLIC] };
      const app = await buildApp(productionContext, { logger: false, webhookResolver: fakeDns(rebinding) });
      checkAnswers(app);
      try {
        const headers = await bearerFor(t, 'brandau');
        const created = await app.inject({
          method: 'POST',
          url: webhooksPath(),
          headers,
          payload: { url: `https://rebind.partner.example:${port}/hooks` },
        });
        expect(created.statusCode).toBe(201);
        const { webhookId } = created.json<{ webhookId: string }>();
        const sent = await app.inject({ method: 'POST', url: `${webhooksPath()}/${webhookId}/test`, headers });
        const { eventId } = sent.json<{ eventId: string }>();
        // Now the name answers 127.0.0.1, where a receiver listens.
        const worker = webhookWorker(
          { ...t, context: productionContext },
          fakeDns({ 'rebind.partner.example': ['127.0.0.1'] }),
        );
        await worker.runOnce();
        await worker.stop();
        expect(receiver.received).toHaveLength(0);
        expect(await attemptsOf(t, eventId)).toMatchObject([
          { attempt: 1, outcome: 'FAILED', status_code: null, error: 'ADDRESS_REFUSED' },
        ]);
        expect((await findMessage(t.context.db, `webhook:${eventId}:${webhookId}`))?.state).toBe('PENDING');
      } finally {
        await app.close();
      }
    } finally {
      await receiver.close();
    }
  });
  it('refuses at delivery a stored URL the rules refuse now (localhost, http)', async () => {
    const t = testApp();
    const headers = await bearerFor(t, 'brandau');
    const created = await register('https://hooks.partner.example/later');
    const { webhookId } = created.json<{ webhookId: string }>();
    for (const url of ['https://localhost:9/hooks', 'http://hooks.partner.example/hooks', 'https://[::ffff:7f00:1]/']) {
      await t.context.db.updateTable('webhook_endpoint').set({ url }).where('public_id', '=', webhookId).execute();
      const sent = await production.inject({ method: 'POST', url: `${webhooksPath()}/${webhookId}/test`, headers });
      const { eventId } = sent.json<{ eventId: string }>();
      const worker = webhookWorker({ ...t, context: productionContext }, fakeDns(dns));
      await worker.runOnce();
      await worker.stop();
      expect(await attemptsOf(t, eventId), url).toMatchObject([{ outcome: 'FAILED', error: 'ADDRESS_REFUSED' }]);
    }
  });
});

describe(`webhook addresses in staging (${DIALECT})`, () => {
  let receiver: WebhookReceiver;
  const receiverDns: Record<string, string[]> = { 'receiver.partner.test': ['127.0.0.1'] };
  const testApp = useTestApp({ appOptions: { webhookResolver: fakeDns(receiverDns) } });
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('connects to the address the guarded lookup checked (the name exists only in the injected resolver)', async () => {
    const t = testApp();
    const headers = await bearerFor(t, 'brandau');
    const url = receiver.url.replace('127.0.0.1', 'receiver.partner.test');
    const created = await t.app.inject({ method: 'POST', url: webhooksPath(), headers, payload: { url } });
    expect(created.statusCode).toBe(201);
    const { webhookId, secret } = created.json<{ webhookId: string; secret: string }>();
    await t.app.inject({ method: 'POST', url: `${webhooksPath()}/${webhookId}/test`, headers });
    const worker = webhookWorker(t, fakeDns(receiverDns));
    await worker.runOnce();
    await worker.stop();
    expect(receiver.received).toHaveLength(1);
    expect(verifyWebhook(secret, receiver.received[0]!)).toMatchObject({ type: 'webhook.test' });
  });

  it('allows loopback but refuses the other private classes at delivery too', async () => {
    const t = testApp();
    const headers = await bearerFor(t, 'brandau');
    const url = receiver.url.replace('127.0.0.1', 'receiver.partner.test');
    const created = await t.app.inject({ method: 'POST', url: webhooksPath(), headers, payload: { url } });
    const { webhookId } = created.json<{ webhookId: string }>();
    const sent = await t.app.inject({ method: 'POST', url: `${webhooksPath()}/${webhookId}/test`, headers });
    const { eventId } = sent.json<{ eventId: string }>();
    const worker = webhookWorker(t, fakeDns({ 'receiver.partner.test': ['192.168.1.10'] }));
    await worker.runOnce();
    await worker.stop();
    expect(await attemptsOf(t, eventId)).toMatchObject([{ outcome: 'FAILED', error: 'ADDRESS_REFUSED' }]);
  });
});
