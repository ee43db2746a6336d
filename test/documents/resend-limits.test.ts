import { describe, expect, it } from 'vitest';
import { resendsOf } from '../../src/documents/repository-resends.js';
import { useTestApp, type TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { boughtPolicy, NOW } from '../policy-changes/support.js';

const resendsQueued = async (t: TestApp, policyNumber: string) =>
  (
    await t.context.db
      .selectFrom('outbox_message')
      .select('message_key')
      .where('message_key', 'like', `policy-documents:${policyNumber}:%:resend:%`)
      .execute()
  ).length;

const resend = async (t: TestApp, policyNumber: string, body: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/policies/v1/brandau/policies/${policyNumber}/documents/send`,
    headers: await bearerFor(t, 'brandau', 'A'),
    payload: body,
  });

describe(`document resends are bounded per policy and per partner, and recorded (${DIALECT})`, () => {
  const getApp = useTestApp({
    env: { DEMO_DATA: 'true', DOCUMENT_RESENDS_PER_POLICY_PER_DAY: '3', DOCUMENT_RESENDS_PER_PARTNER_PER_HOUR: '4' },
    clock: () => NOW,
  });

  it('the fourth resend of a policy in a day is 429 with Retry-After, and queues nothing', async () => {
    const t = getApp();
    const { policyNumber } = await boughtPolicy(t);
    for (let i = 0; i < 3; i += 1)
      expect((await resend(t, policyNumber, { emailAddress: `a${i}@x.example` })).statusCode).toBe(202);
    const refused = await resend(t, policyNumber, { emailAddress: 'stranger@x.example' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ validation: { errors: [{ code: 'RATE_LIMITED' }] } });
    const midnight = Date.parse(`${NOW.toISOString().slice(0, 10)}T00:00:00Z`) + 86_400_000;
    expect(Number(refused.headers['retry-after'])).toBe(Math.ceil((midnight - NOW.getTime()) / 1000));
    expect(await resendsQueued(t, policyNumber)).toBe(3);
    // Who asked is kept for each, and whether it went elsewhere than the traveller.
    const asked = await resendsOf(t.context.db, policyNumber);
    expect(asked).toHaveLength(3);
    expect(asked.every((r) => r.toOtherAddress && r.userId > 0)).toBe(true);

    // The partner's hourly budget (4) spans its policies: one more on another policy, then 429.
    const other = await boughtPolicy(t);
    expect((await resend(t, other.policyNumber)).statusCode).toBe(202);
    expect((await resend(t, other.policyNumber)).statusCode).toBe(429);
    expect(await resendsQueued(t, other.policyNumber)).toBe(1);
  });
});

describe(`parallel resends never pass the limit (${DIALECT})`, () => {
  const getApp = useTestApp({
    env: { DEMO_DATA: 'true', DOCUMENT_RESENDS_PER_POLICY_PER_DAY: '3', DOCUMENT_RESENDS_PER_PARTNER_PER_HOUR: '1000' },
    clock: () => NOW,
  });

  it('30 at once: exactly 3 queued', async () => {
    const t = getApp();
    const { policyNumber } = await boughtPolicy(t);
    const answers = await Promise.all(Array.from({ length: 30 }, () => resend(t, policyNumber)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 202)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(27);
    expect(await resendsQueued(t, policyNumber)).toBe(3);
  });
});
