import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMessage } from '../../src/db/outbox/repository.js';
import { actionsOnSubject } from '../../src/operators/audit-repository.js';
import { findOperatorById } from '../../src/operators/repository.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { NOW } from '../policy-changes/support.js';
import { formPost, pageHarness } from './page-harness.js';
import { attentionChange, failedEmail, goneEndpoint, partnerUser } from './support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });
let pages: FastifyInstance;
beforeAll(async () => {
  pages = await pageHarness(getApp());
});
afterAll(async () => {
  await pages.close();
});

const get = (url: string, role = 'SUPPORT') => pages.inject({ method: 'GET', url, headers: { 'x-test-role': role } });

describe(`work queue pages (${DIALECT})`, () => {
  it('the index counts each queue and links to it', async () => {
    const res = await get('/console/work', 'READ_ONLY');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    for (const href of ['attention', 'deliveries', 'webhook-endpoints', 'partners'])
      expect(res.body).toContain(`href="/console/work/${href}"`);
  });

  it('a change in ATTENTION: listed, resolved once with a reason (303 back), a second resolve refused; READ_ONLY 403', async () => {
    const t = getApp();
    const { id, policyNumber } = await attentionChange(t);
    const list = await get('/console/work/attention', 'READ_ONLY');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(policyNumber);
    expect(list.body).toContain('REFUND_DECLINED');
    const path = `/console/work/attention/${id}/resolve`;
    expect((await pages.inject(formPost(path, { reason: 'paid by hand' }, 'READ_ONLY'))).statusCode).toBe(403);
    expect((await pages.inject(formPost(path, { reason: '' }))).statusCode).toBe(400);
    expect(await actionsOnSubject(t.context.db, 'policy_change', id)).toEqual([]);
    const done = await pages.inject(formPost(path, { reason: 'Refunded the rest by bank transfer' }));
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/console/work/attention?done=resolved');
    const again = await pages.inject(formPost(path, { reason: 'twice' }));
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('resolved already');
    expect(await actionsOnSubject(t.context.db, 'policy_change', id)).toHaveLength(1);
    expect((await get('/console/work/attention')).body).not.toContain(id);
  });

  it('a failed e-mail: listed without its payload, retried once; READ_ONLY 403', async () => {
    const t = getApp();
    const key = 'policy-documents:PAGE000001:1';
    await failedEmail(t, key);
    const list = await get('/console/work/deliveries');
    expect(list.body).toContain(key);
    expect(list.body).toContain('MailSendFailed EENVELOPE');
    expect(list.body).not.toContain('someone@example.test');
    expect((await pages.inject(formPost('/console/work/deliveries/retry', { key }, 'READ_ONLY'))).statusCode).toBe(403);
    const done = await pages.inject(formPost('/console/work/deliveries/retry', { key }));
    expect(done.statusCode).toBe(303);
    expect(await findMessage(t.context.db, key)).toMatchObject({ state: 'PENDING', attempts: 0 });
    expect((await pages.inject(formPost('/console/work/deliveries/retry', { key }))).statusCode).toBe(409);
    expect(await actionsOnSubject(t.context.db, 'outbox_message', key)).toHaveLength(1);
    // A card number posted as a key is never shown back.
    const card = await pages.inject(formPost('/console/work/deliveries/retry', { key: '4111 1111 1111 1111' }));
    expect(card.statusCode).toBe(409);
    expect(card.body).not.toMatch(/4111 ?1111 ?1111 ?1111/);
  });

  it("a partner's users: disable and enable again, each once; READ_ONLY 403", async () => {
    const t = getApp();
    const { userId, partnerId, login } = await partnerUser(t);
    expect((await get('/console/work/partners')).body).toContain(`href="/console/work/partners/${partnerId}"`);
    const users = await get(`/console/work/partners/${partnerId}`, 'READ_ONLY');
    expect(users.statusCode).toBe(200);
    expect(users.body).toContain(login);
    const base = `/console/work/partners/${partnerId}/users/${userId}`;
    expect((await pages.inject(formPost(`${base}/disable`, { reason: 'left' }, 'READ_ONLY'))).statusCode).toBe(403);
    expect((await pages.inject(formPost(`${base}/disable`, { reason: 'Staff member left' }))).statusCode).toBe(303);
    expect((await pages.inject(formPost(`${base}/disable`, { reason: 'again' }))).statusCode).toBe(409);
    expect((await get(`/console/work/partners/${partnerId}`)).body).toContain('Disabled');
    expect((await pages.inject(formPost(`${base}/enable`, { reason: 'Back' }, 'READ_ONLY'))).statusCode).toBe(403);
    expect((await pages.inject(formPost(`${base}/enable`, { reason: 'Back' }))).statusCode).toBe(303);
    expect((await pages.inject(formPost(`${base}/enable`, { reason: 'Back' }))).statusCode).toBe(409);
    const audit = await actionsOnSubject(t.context.db, 'partner_user', String(userId));
    expect(audit.map((e) => e.action)).toEqual(['partner_user.disable', 'partner_user.enable']);
    expect((await get('/console/work/partners/999999')).statusCode).toBe(404);
  });

  it('a disabled webhook endpoint: listed with partner, URL and why; re-enabled once; READ_ONLY 403', async () => {
    const t = getApp();
    const id = await goneEndpoint(t, 'http://127.0.0.1:9/hooks/page');
    const list = await get('/console/work/webhook-endpoints');
    expect(list.body).toContain(id);
    expect(list.body).toContain('http://127.0.0.1:9/hooks/page');
    expect(list.body).toContain('PARTNERA');
    expect(list.body).toContain('GONE');
    const path = `/console/work/webhook-endpoints/${id}/enable`;
    expect((await pages.inject(formPost(path, { reason: 'fixed' }, 'READ_ONLY'))).statusCode).toBe(403);
    expect((await pages.inject(formPost(path, { reason: 'Receiver fixed' }))).statusCode).toBe(303);
    expect((await pages.inject(formPost(path, { reason: 'again' }))).statusCode).toBe(409);
    expect(await actionsOnSubject(t.context.db, 'webhook_endpoint', id)).toHaveLength(1);
    expect((await get('/console/work/webhook-endpoints')).body).not.toContain(id);
  });

  it('the audit trail: newest first, who, what, subject, before/after and reason, paged; READ_ONLY may read it', async () => {
    const res = await get('/console/audit?limit=2', 'READ_ONLY');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('webhook_endpoint.enable');
    expect(res.body).toContain('Receiver fixed');
    // Who: the operator's name and username (demo data seeds operators), else its id.
    const one = await findOperatorById(getApp().context.db, 1);
    expect(res.body).toContain(one ? `${one.displayName} (${one.username})` : 'operator 1');
    const next = /href="\/console\/audit\?after=([^"]+)"/.exec(res.body)?.[1];
    expect(next).toBeDefined();
    const older = await get(`/console/audit?after=${next!}`, 'READ_ONLY');
    expect(older.body).toContain('change.resolve');
    expect(older.body).not.toContain('webhook_endpoint.enable');
    expect((await get('/console/audit', 'UNDERWRITER')).statusCode).toBe(200);
  });
});
