import { expect } from 'vitest';
import { findPartner } from '../../src/auth/accounts.js';
import { enqueue } from '../../src/db/outbox/repository.js';
import { disableEndpoint } from '../../src/events/webhooks/repository.js';
import type { Operator, OperatorRole } from '../../src/operators/model.js';
import type { TestApp } from '../helpers/app.js';
import { ensureTestUser } from '../helpers/auth.js';
import { boughtPolicy, previewAmendment, type ChangeAnswer } from '../policy-changes/support.js';
import { registerEndpoint } from '../webhooks/support.js';

/** Operators of each role, as the console's guard hands them to pages (ids 1…4). */
export const OPERATORS: Readonly<Record<OperatorRole, Operator>> = {
  SUPPORT: { id: 1, username: 'sam', displayName: 'Sam Support', role: 'SUPPORT' },
  READ_ONLY: { id: 2, username: 'rita', displayName: 'Rita Reader', role: 'READ_ONLY' },
  UNDERWRITER: { id: 3, username: 'uma', displayName: 'Uma Underwriter', role: 'UNDERWRITER' },
  SENIOR_UNDERWRITER: { id: 4, username: 'sol', displayName: 'Sol Senior', role: 'SENIOR_UNDERWRITER' },
};

/**
 * A change left in ATTENTION: a preview set to the state a refund refused part-way leaves (rare to
 * stage through the gateway; test/process/policy-change-cli.test.ts does the same).
 */
export async function attentionChange(t: TestApp): Promise<{ id: string; policyNumber: string }> {
  const { policyNumber, input } = await boughtPolicy(t);
  const preview = await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-20' });
  expect(preview.statusCode, preview.body).toBe(200);
  const id = preview.json<ChangeAnswer>().id!;
  await t.context.db
    .updateTable('policy_change')
    .set({ state: 'ATTENTION', decline_reason: 'REFUND_DECLINED', updated_at: t.context.clock().toISOString() })
    .where('public_id', '=', id)
    .execute();
  return { id, policyNumber };
}

/** An e-mail in the outbox that failed after its last attempt (no worker runs in the test app). */
export async function failedEmail(t: TestApp, key: string): Promise<void> {
  const at = t.context.clock().toISOString();
  await enqueue(t.context.db, { key, kind: 'policy-documents', payload: { to: 'someone@example.test' }, at });
  await t.context.db
    .updateTable('outbox_message')
    .set({ state: 'FAILED', attempts: 5, last_error: 'MailSendFailed EENVELOPE' })
    .where('message_key', '=', key)
    .execute();
}

/** Partner B's user of brandau (tests that disable it leave partner A's cached tokens alone), with its ids. */
export async function partnerUser(t: TestApp): Promise<{ userId: number; partnerId: number; login: string }> {
  const { login } = await ensureTestUser(t, 'brandau', 'B');
  const partner = await findPartner(t.context, 'PARTNERB');
  const row = await t.context.db
    .selectFrom('app_user')
    .select('id')
    .where('login_key', '=', login.toLowerCase())
    .executeTakeFirstOrThrow();
  return { userId: row.id, partnerId: partner!.id, login };
}

/** An endpoint of partner A that the service disabled (its receiver answered 410). */
export async function goneEndpoint(t: TestApp, url = 'http://127.0.0.1:9/hooks/gone'): Promise<string> {
  const { webhookId } = await registerEndpoint(t, { url });
  await disableEndpoint(t.context.db, webhookId, 'GONE', t.context.clock().toISOString());
  return webhookId;
}
