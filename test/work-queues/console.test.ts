import { describe, expect, it } from 'vitest';
import { findMessage } from '../../src/db/outbox/repository.js';
import { actionsOnSubject } from '../../src/operators/audit-repository.js';
import { useTestApp } from '../helpers/app.js';
import { signInAs } from '../helpers/console.js';
import { DIALECT } from '../helpers/database.js';
import { NOW } from '../policy-changes/support.js';
import { attentionChange, failedEmail, goneEndpoint, partnerUser } from './support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

describe(`work queues through the console (${DIALECT})`, () => {
  it('support resolves a change, retries an e-mail, disables a user and enables an endpoint; each once, each audited', async () => {
    const t = getApp();
    const support = await signInAs(t, 'SUPPORT');
    const reader = await signInAs(t, 'READ_ONLY');

    const change = await attentionChange(t);
    expect((await support.get('/console/work')).statusCode).toBe(200);
    expect((await reader.get('/console/work/attention')).body).toContain(change.policyNumber);
    const resolve = `/console/work/attention/${change.id}/resolve`;
    expect((await reader.post(resolve, { reason: 'not mine to do' })).statusCode).toBe(403);
    const resolved = await support.post(resolve, { reason: 'Refunded the rest by bank transfer' });
    expect(resolved.statusCode).toBe(303);
    expect(resolved.headers.location).toBe('/console/work/attention?done=resolved');
    expect((await support.post(resolve, { reason: 'again' })).statusCode).toBe(409);
    expect(await actionsOnSubject(t.context.db, 'policy_change', change.id)).toHaveLength(1);

    const key = 'policy-documents:CONSOLE0001:1';
    await failedEmail(t, key);
    expect((await support.get('/console/work/deliveries')).body).toContain(key);
    expect((await reader.post('/console/work/deliveries/retry', { key })).statusCode).toBe(403);
    expect((await support.post('/console/work/deliveries/retry', { key })).statusCode).toBe(303);
    expect((await support.post('/console/work/deliveries/retry', { key })).statusCode).toBe(409);
    expect(await findMessage(t.context.db, key)).toMatchObject({ state: 'PENDING', attempts: 0 });

    const { userId, partnerId } = await partnerUser(t);
    const disable = `/console/work/partners/${partnerId}/users/${userId}/disable`;
    expect((await reader.post(disable, { reason: 'left' })).statusCode).toBe(403);
    expect((await support.post(disable, { reason: 'Staff member left' })).statusCode).toBe(303);
    expect((await support.post(disable, { reason: 'again' })).statusCode).toBe(409);
    const enable = `/console/work/partners/${partnerId}/users/${userId}/enable`;
    expect((await reader.post(enable, { reason: 'back' })).statusCode).toBe(403);
    expect((await support.post(enable, { reason: 'Back from leave' })).statusCode).toBe(303);

    const endpoint = await goneEndpoint(t, 'http://127.0.0.1:9/hooks/console');
    const reenable = `/console/work/webhook-endpoints/${endpoint}/enable`;
    expect((await support.get('/console/work/webhook-endpoints')).body).toContain(endpoint);
    expect((await reader.post(reenable, { reason: 'fixed' })).statusCode).toBe(403);
    expect((await support.post(reenable, { reason: 'Receiver fixed' })).statusCode).toBe(303);
    expect((await support.post(reenable, { reason: 'again' })).statusCode).toBe(409);

    const trail = await reader.get('/console/audit');
    expect(trail.statusCode).toBe(200);
    for (const action of [
      'change.resolve',
      'delivery.retry',
      'partner_user.disable',
      'partner_user.enable',
      'webhook_endpoint.enable',
    ])
      expect(trail.body).toContain(action);
    expect(trail.body).toContain('(op-support)');
    expect(trail.body).toContain('Refunded the rest by bank transfer');
  });

  it('a POST without the CSRF token changes nothing', async () => {
    const t = getApp();
    const support = await signInAs(t, 'SUPPORT');
    const change = await attentionChange(t);
    const refused = await support.post(`/console/work/attention/${change.id}/resolve`, { reason: 'x' }, false);
    expect(refused.statusCode).toBe(403);
    expect(await actionsOnSubject(t.context.db, 'policy_change', change.id)).toEqual([]);
  });
});
