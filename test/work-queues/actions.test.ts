import { describe, expect, it } from 'vitest';
import { PartnerUserUnchanged } from '../../src/auth/user-standing.js';
import { findMessage } from '../../src/db/outbox/repository.js';
import { EndpointNotServiceDisabled } from '../../src/events/webhooks/reenable.js';
import { disableEndpoint } from '../../src/events/webhooks/repository.js';
import { actionsOnSubject } from '../../src/operators/audit-repository.js';
import {
  reenableWebhookEndpoint,
  resolveChange,
  retryDelivery,
  setPartnerUserActive,
} from '../../src/work-queues/actions.js';
import {
  ChangeNotInAttention,
  DeliveryNotFailed,
  OperatorNotAllowed,
  ReasonRefused,
} from '../../src/work-queues/errors.js';
import {
  attentionPage,
  disabledEndpointsPage,
  failedDeliveriesPage,
  partnerUsersPage,
  workCounts,
} from '../../src/work-queues/queues.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { partnerLogin, postToken } from '../auth/support.js';
import { testPassword } from '../helpers/auth.js';
import { call, details, NOW } from '../policy-changes/support.js';
import { registerEndpoint, webhooksPath } from '../webhooks/support.js';
import { attentionChange, failedEmail, goneEndpoint, OPERATORS, partnerUser } from './support.js';
import { bearerFor } from '../helpers/auth.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });
const { SUPPORT, READ_ONLY } = OPERATORS;

describe(`work queues' actions (${DIALECT})`, () => {
  it('resolves a change in ATTENTION once, with a reason, audited in the same commit', async () => {
    const t = getApp();
    const { id, policyNumber } = await attentionChange(t);
    const listed = await attentionPage(t.context.db, { limit: 25 });
    expect(listed.items.find((c) => c.id === id)).toMatchObject({
      policyNumber,
      kind: 'AMENDMENT',
      reason: 'REFUND_DECLINED',
    });
    expect((await workCounts(t.context.db)).attention).toBeGreaterThanOrEqual(1);

    await expect(resolveChange(t.context, SUPPORT, id, '   ')).rejects.toBeInstanceOf(ReasonRefused);
    await expect(resolveChange(t.context, SUPPORT, id, 'refund 4111 1111 1111 1111')).rejects.toBeInstanceOf(
      ReasonRefused,
    );
    await expect(resolveChange(t.context, READ_ONLY, id, 'paid by hand')).rejects.toBeInstanceOf(OperatorNotAllowed);
    expect(await actionsOnSubject(t.context.db, 'policy_change', id)).toEqual([]);

    // Two operators at once: one resolves, the other is refused cleanly.
    const both = await Promise.allSettled([
      resolveChange(t.context, SUPPORT, id, 'Refunded the rest by bank transfer'),
      resolveChange(t.context, { ...SUPPORT, id: 9 }, id, 'Refunded by hand'),
    ]);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = both.find((r) => r.status === 'rejected');
    expect(refused?.reason).toBeInstanceOf(ChangeNotInAttention);

    const state = await t.context.db
      .selectFrom('policy_change')
      .select('state')
      .where('public_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(state.state).toBe('RESOLVED');
    const audit = await actionsOnSubject(t.context.db, 'policy_change', id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'change.resolve',
      before: { state: 'ATTENTION', policyNumber, stoppedBy: 'REFUND_DECLINED' },
      after: { state: 'RESOLVED' },
      at: NOW.toISOString(),
    });
    expect(['Refunded the rest by bank transfer', 'Refunded by hand']).toContain(audit[0]!.reason);
    expect((await attentionPage(t.context.db, { limit: 25 })).items.map((c) => c.id)).not.toContain(id);
    // The policy's record says it too: a note (reason "Payment correction") the partner reads in /details.
    const policy = await details(t, policyNumber);
    const notes = (policy as unknown as { notes?: { noteText?: string }[] }[]).flatMap((d) => d.notes ?? []);
    expect(notes).toHaveLength(1);
    expect(notes[0]?.noteText).toContain(audit[0]!.reason!);
    expect(JSON.stringify(notes[0])).toContain('Payment correction');
  });

  it('pages the queue by keyset, oldest first', async () => {
    const t = getApp();
    const a = await attentionChange(t);
    const b = await attentionChange(t);
    const first = await attentionPage(t.context.db, { limit: 1 });
    expect(first.items).toHaveLength(1);
    expect(first.next).toBeDefined();
    const rest = await attentionPage(t.context.db, { limit: 25, after: first.next! });
    const ids = [...first.items, ...rest.items].map((c) => c.id);
    expect(ids).toContain(a.id);
    expect(ids).toContain(b.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('retries a failed e-mail once (PENDING with every attempt again), audited', async () => {
    const t = getApp();
    const key = 'policy-documents:TEST000001:1';
    await failedEmail(t, key);
    const listed = (await failedDeliveriesPage(t.context.db, { limit: 25 })).items.find((d) => d.key === key);
    expect(listed).toEqual({
      key,
      kind: 'E-MAIL',
      attempts: 5,
      lastError: 'MailSendFailed EENVELOPE',
      since: NOW.toISOString(),
    });
    await expect(retryDelivery(t.context, READ_ONLY, key)).rejects.toBeInstanceOf(OperatorNotAllowed);
    await retryDelivery(t.context, SUPPORT, key);
    expect(await findMessage(t.context.db, key)).toMatchObject({ state: 'PENDING', attempts: 0 });
    await expect(retryDelivery(t.context, SUPPORT, key)).rejects.toBeInstanceOf(DeliveryNotFailed);
    await expect(retryDelivery(t.context, SUPPORT, 'no-such-key')).rejects.toBeInstanceOf(DeliveryNotFailed);
    const audit = await actionsOnSubject(t.context.db, 'outbox_message', key);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'delivery.retry',
      before: { state: 'FAILED', attempts: 5 },
      after: { state: 'PENDING' },
    });
    expect(JSON.stringify(audit)).not.toContain('someone@example.test');
  });

  it('disables a partner user (tokens refused, sessions revoked) and enables it again (old sessions stay revoked)', async () => {
    const t = getApp();
    const { userId, partnerId, login } = await partnerUser(t);
    const credentials = partnerLogin(login, testPassword('brandau', 'B'));
    const before = (await postToken(t.app, credentials)).json<{ access_token: string; refresh_token: string }>();

    await expect(setPartnerUserActive(t.context, SUPPORT, userId, false, '')).rejects.toBeInstanceOf(ReasonRefused);
    const disabled = await setPartnerUserActive(t.context, SUPPORT, userId, false, 'Partner asked: staff member left');
    expect(disabled.revokedTokens).toBeGreaterThanOrEqual(1);
    await expect(setPartnerUserActive(t.context, SUPPORT, userId, false, 'again')).rejects.toBeInstanceOf(
      PartnerUserUnchanged,
    );
    expect((await postToken(t.app, credentials)).statusCode).toBe(401);
    const users = await partnerUsersPage(t.context.db, partnerId, { limit: 25 });
    expect(users?.users.items.find((u) => u.id === userId)).toMatchObject({
      active: false,
      deactivatedAt: NOW.toISOString(),
    });

    await setPartnerUserActive(t.context, SUPPORT, userId, true, 'Back from leave');
    expect((await postToken(t.app, credentials)).statusCode).toBe(200);
    const refresh = await postToken(t.app, {
      grant_type: 'refresh_token',
      client_id: 'API',
      refresh_token: before.refresh_token,
    });
    expect(refresh.statusCode).toBe(401);
    const old = await t.app.inject({
      method: 'GET',
      url: webhooksPath(),
      headers: { authorization: `Bearer ${before.access_token}` },
    });
    expect(old.statusCode).toBe(401);
    const audit = await actionsOnSubject(t.context.db, 'partner_user', String(userId));
    expect(audit.map((e) => e.action)).toEqual(['partner_user.disable', 'partner_user.enable']);
    expect(audit[1]).toMatchObject({ before: { active: false }, after: { active: true }, reason: 'Back from leave' });
  });

  it('re-enables an endpoint the service disabled, as the partner PATCH would; refuses one the partner disabled', async () => {
    const t = getApp();
    const gone = await goneEndpoint(t);
    const listed = await disabledEndpointsPage(t.context.db, { limit: 25 });
    expect(listed.items.find((e) => e.endpoint.id === gone)).toMatchObject({
      endpoint: { disabledReason: 'GONE', enabled: false },
      partner: { code: 'PARTNERA' },
    });
    await expect(reenableWebhookEndpoint(t.context, READ_ONLY, gone, 'ok')).rejects.toBeInstanceOf(OperatorNotAllowed);
    await reenableWebhookEndpoint(t.context, SUPPORT, gone, 'Receiver fixed, partner confirmed by phone');
    await expect(reenableWebhookEndpoint(t.context, SUPPORT, gone, 'again')).rejects.toBeInstanceOf(
      EndpointNotServiceDisabled,
    );
    const seen = await t.app.inject({
      method: 'GET',
      url: `${webhooksPath()}/${gone}`,
      headers: await bearerFor(t, 'brandau', 'A'),
    });
    expect(seen.json()).toMatchObject({ enabled: true });
    expect(seen.json()).not.toHaveProperty('disabledReason');
    expect((await actionsOnSubject(t.context.db, 'webhook_endpoint', gone))[0]).toMatchObject({
      action: 'webhook_endpoint.enable',
      before: { enabled: false, disabledReason: 'GONE' },
      after: { enabled: true },
    });

    const own = await registerEndpoint(t, { url: 'http://127.0.0.1:9/hooks/own' });
    await disableEndpoint(t.context.db, own.webhookId, 'PARTNER', NOW.toISOString());
    expect((await disabledEndpointsPage(t.context.db, { limit: 25 })).items.map((e) => e.endpoint.id)).not.toContain(
      own.webhookId,
    );
    await expect(reenableWebhookEndpoint(t.context, SUPPORT, own.webhookId, 'no')).rejects.toBeInstanceOf(
      EndpointNotServiceDisabled,
    );
    expect((await call(t, 'GET', `${webhooksPath()}/${own.webhookId}`)).json()).toMatchObject({
      enabled: false,
      disabledReason: 'PARTNER',
    });
  });
});
