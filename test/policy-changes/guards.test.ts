import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { planOf } from '../purchases/support.js';
import {
  boughtPolicy,
  call,
  CARDS,
  confirm,
  moneyOf,
  NOW,
  previewAmendment,
  previewCancellation,
  summary,
  type ChangeAnswer,
  type ConfirmAnswer,
} from './support.js';

let now = NOW;
const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => now });
beforeEach(() => {
  now = NOW;
});

type Envelope = { validation: { isValid: boolean; errors: { code: string; message: string; property?: string }[] } };
const codeOf = (res: LightMyRequestResponse) => res.json<Envelope>().validation.errors[0]?.code;
const base = (policyNumber: string, brand = 'brandau') => `/policies/v1/${brand}/policies/${policyNumber}`;
const card = { cardToken: { token: CARDS.approved } };

/** A bought policy and a valid preview of a longer trip (costs more). */
async function withPreview(returnDate = '2026-12-27') {
  const t = getApp();
  const policy = await boughtPolicy(t);
  const res = await previewAmendment(t, policy.policyNumber, { ...policy.input, returnDate });
  const preview = res.json<ChangeAnswer>();
  expect(preview.validation.isValid, res.body).toBe(true);
  return { t, ...policy, preview };
}

describe(`policy changes: guards (${DIALECT})`, () => {
  it('another partner or another brand: 404 POLICY_NOT_FOUND everywhere; unknown ids: 404 …_NOT_FOUND', async () => {
    const { t, policyNumber, input, preview } = await withPreview();
    const cancellation = (
      await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' })
    ).json<ChangeAnswer>();
    for (const who of [
      { brand: 'brandau', partner: 'B' },
      { brand: 'brandnz', partner: 'A' },
    ] as const) {
      const path = base(policyNumber, who.brand);
      const asOther = (method: 'GET' | 'POST', suffix: string, body?: unknown, key?: string) =>
        call(t, method, `${path}${suffix}`, { ...who, ...(body ? { body } : {}), ...(key ? { key } : {}) });
      const answers = [
        await asOther('POST', '/amendments', { input }),
        await asOther('POST', '/cancellations', { reasonCode: 'TRIP_CANCELLED' }),
        await asOther('POST', `/amendments/${preview.id}/confirm`, card, `other-${who.brand}-${who.partner}`),
        await asOther('POST', `/cancellations/${cancellation.id}/confirm`, {}, `other-c-${who.brand}-${who.partner}`),
        await asOther('GET', `/amendments/${preview.id}`),
        await asOther('GET', `/cancellations/${cancellation.id}`),
      ];
      for (const res of answers) {
        expect(res.statusCode, `${who.brand}/${who.partner}: ${res.body}`).toBe(404);
        expect(codeOf(res)).toBe('POLICY_NOT_FOUND');
      }
    }
    const unknown = randomUUID();
    for (const [kind, code] of [
      ['amendments', 'AMENDMENT_NOT_FOUND'],
      ['cancellations', 'CANCELLATION_NOT_FOUND'],
    ] as const) {
      const read = await call(t, 'GET', `${base(policyNumber)}/${kind}/${unknown}`);
      const confirmed = await confirm(t, policyNumber, kind, unknown, { key: `unknown-${kind}`, body: card });
      // Another kind's id is unknown too.
      const crossed = await call(
        t,
        'GET',
        `${base(policyNumber)}/${kind}/${kind === 'amendments' ? cancellation.id : preview.id}`,
      );
      for (const res of [read, confirmed, crossed]) {
        expect(res.statusCode, res.body).toBe(404);
        expect(codeOf(res)).toBe(code);
      }
    }
    // Nothing moved.
    expect((await summary(t, policyNumber)).sequenceNumber).toBe(1);
  });

  it('a cancelled policy: 409 POLICY_CANCELLED for a new amendment or cancellation', async () => {
    const t = getApp();
    const { policyNumber, input } = await boughtPolicy(t);
    const cancel = (await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' })).json<ChangeAnswer>();
    expect((await confirm(t, policyNumber, 'cancellations', cancel.id!, { key: 'c' })).statusCode).toBe(200);
    const amend = await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-27' });
    const again = await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' });
    for (const res of [amend, again]) {
      expect(res.statusCode, res.body).toBe(409);
      expect(codeOf(res)).toBe('POLICY_CANCELLED');
    }
  });

  it('confirm without Idempotency-Key: 400 IDEMPOTENCY_KEY_REQUIRED; after 30 minutes: 409 AMENDMENT_EXPIRED', async () => {
    const { t, policyNumber, preview } = await withPreview();
    for (const [kind, id] of [['amendments', preview.id]] as const) {
      const res = await call(t, 'POST', `${base(policyNumber)}/${kind}/${id}/confirm`, { body: card });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<Envelope>().validation.errors[0]).toMatchObject({
        code: 'IDEMPOTENCY_KEY_REQUIRED',
        property: 'Idempotency-Key',
      });
    }
    now = new Date(NOW.getTime() + 31 * 60 * 1000);
    const late = await confirm(t, policyNumber, 'amendments', preview.id!, { key: 'late', body: card });
    expect(late.statusCode, late.body).toBe(409);
    expect(codeOf(late)).toBe('AMENDMENT_EXPIRED');
    expect((await moneyOf(t, policyNumber)).payments).toHaveLength(1);
  });

  it('a preview made stale by another confirmation: 409 AMENDMENT_STALE', async () => {
    const { t, policyNumber, input, preview } = await withPreview();
    const other = (
      await previewAmendment(t, policyNumber, { ...input, returnDate: '2027-01-02' })
    ).json<ChangeAnswer>();
    expect((await confirm(t, policyNumber, 'amendments', preview.id!, { key: 's1', body: card })).statusCode).toBe(200);
    const stale = await confirm(t, policyNumber, 'amendments', other.id!, { key: 's2', body: card });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(codeOf(stale)).toBe('AMENDMENT_STALE');
  });

  it('two confirmations racing on one policy: one 200, one 409, one charge; a replayed key answers the same', async () => {
    const { t, policyNumber, input, preview } = await withPreview();
    const other = (
      await previewAmendment(t, policyNumber, { ...input, returnDate: '2027-01-02' })
    ).json<ChangeAnswer>();
    const raced = await Promise.all([
      confirm(t, policyNumber, 'amendments', preview.id!, { key: 'r1', body: card }),
      confirm(t, policyNumber, 'amendments', other.id!, { key: 'r2', body: card }),
    ]);
    expect(raced.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const won = raced.find((r) => r.statusCode === 200)!;
    const lost = raced.find((r) => r.statusCode === 409)!;
    expect(['AMENDMENT_STALE', 'POLICY_CHANGE_IN_PROGRESS']).toContain(codeOf(lost));
    expect(won.json<ConfirmAnswer>().policy.sequenceNumber).toBe(2);
    const books = await moneyOf(t, policyNumber);
    expect(books.payments.filter((p) => p.captured > 0)).toHaveLength(2);

    const winner = won === raced[0] ? { id: preview.id!, key: 'r1' } : { id: other.id!, key: 'r2' };
    const replay = await confirm(t, policyNumber, 'amendments', winner.id, { key: winner.key, body: card });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(won.json());
    expect(await moneyOf(t, policyNumber)).toEqual(books);
    expect((await summary(t, policyNumber)).sequenceNumber).toBe(2);
  });

  it('what may not change: 200 isValid false, FIELD_NOT_CHANGEABLE on the field, no id', async () => {
    const t = getApp();
    const { policyNumber, input } = await boughtPolicy(t);
    const basic = await planOf(t, 'brandau', 'BASIC');
    const [first, ...others] = input.policyHolders;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...input, quoteType: 'MULTITRIP' }, 'input.quoteType'],
      [{ ...input, planId: basic.planId }, 'input.planId'],
      [
        { ...input, homeAddress: { ...input.homeAddress, countryCode: 'NZL', provinceCode: undefined } },
        'input.homeAddress.countryCode',
      ],
      [{ ...input, policyHolders: [{ ...first, dateOfBirth: '1980-01-01' }, ...others] }, 'input.policyHolders'],
    ];
    for (const [next, property] of cases) {
      const res = await previewAmendment(t, policyNumber, next);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<ChangeAnswer>();
      expect(body.validation.isValid, `${property}: ${res.body}`).toBe(false);
      expect(body.id).toBeUndefined();
      const refusal = body.validation.errors.find((e) => e.code === 'FIELD_NOT_CHANGEABLE');
      expect(refusal, `${property}: ${res.body}`).toBeDefined();
      expect(refusal!.property).toContain(property);
    }
  });

  it('bad input: 400 with the Notification envelope, never 500; a card number: 400 CARD_NUMBER_REFUSED', async () => {
    const { t, policyNumber, input, preview } = await withPreview();
    const path = base(policyNumber);
    const bad = [
      await call(t, 'POST', `${path}/amendments`, { body: { input: 'a trip' } }),
      await call(t, 'POST', `${path}/amendments`, { body: { input: { ...input, returnDate: 20261227 } } }),
      await call(t, 'POST', `${path}/amendments`, { body: {} }),
      await call(t, 'POST', `${path}/cancellations`, { body: { reasonCode: 'BORED' } }),
      await call(t, 'POST', `${path}/cancellations`, { body: { reasonCode: 'TRIP_CANCELLED', effectiveDate: 12 } }),
      await call(t, 'POST', `${path}/amendments/${preview.id}/confirm`, { key: 'bad-1', body: { cardToken: 'tok' } }),
    ];
    for (const res of bad) {
      expect(res.statusCode, res.body).toBe(400);
      const [first] = res.json<Envelope>().validation.errors;
      expect(first, res.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      expect(first!.property, res.body).toEqual(expect.any(String));
    }
    const holder = { ...input.policyHolders[0]!, lastName: '4111 1111 1111 1111' };
    const refused = [
      await previewAmendment(t, policyNumber, { ...input, policyHolders: [holder, ...input.policyHolders.slice(1)] }),
      await confirm(t, policyNumber, 'amendments', preview.id!, {
        key: 'pan',
        body: { cardToken: { token: '4111111111111111' } },
      }),
    ];
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(400);
      expect(codeOf(res)).toBe('CARD_NUMBER_REFUSED');
      expect(res.body).not.toContain('4111111111111111');
    }
    expect((await summary(t, policyNumber)).sequenceNumber).toBe(1);
  });
});
