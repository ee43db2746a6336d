import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import type { AppContext } from '../../src/context.js';
import { AccountGateway } from '../../src/payments/account/gateway.js';
import { balanceOf } from '../../src/payments/account/ledger.js';
import { accountEntries } from '../../src/payments/account/repository.js';
import type { PaymentGateway } from '../../src/payments/gateway.js';
import { paymentGatewaysFor } from '../../src/payments/gateways.js';
import { DIALECT } from '../helpers/database.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';

const database = useMigratedTestDatabase();
const now = new Date('2026-11-22T10:00:00.000Z');
const AUD = (amountMinor: number) => ({ amountMinor, currency: 'AUD' });
const owner = { partnerId: 7, brandCode: 'brandau' };
let sequence = 0;
const key = (label: string) => `test:${String((sequence += 1))}:${label}`;

const account = (): PaymentGateway => new AccountGateway({ db: database.db, clock: () => now }, owner);

async function heldAndCharged(amountMinor: number) {
  const held = await account().authorise({
    idempotencyKey: key('a'),
    amount: AUD(amountMinor),
    cardToken: '',
    reference: 'p1',
  });
  if (held.outcome !== 'approved') throw new Error(held.outcome);
  const charged = await account().capture({
    idempotencyKey: key('c'),
    paymentId: held.paymentId,
    amount: AUD(amountMinor),
  });
  expect(charged).toEqual({ outcome: 'captured', paymentId: held.paymentId, amount: AUD(amountMinor) });
  return held.paymentId;
}

describe(`on-account gateway (${DIALECT})`, () => {
  it('authorise: approved at once, no 3-D Secure, an acct_ payment; the same key replays it, another call under it is refused', async () => {
    const k = key('authorise');
    const request = { idempotencyKey: k, amount: AUD(5_000), cardToken: '', reference: 'purchase-1' };
    const first = await account().authorise(request);
    expect(first).toMatchObject({ outcome: 'approved', amount: AUD(5_000), threeDSStatus: 'NOT_REQUIRED' });
    if (first.outcome !== 'approved') return;
    expect(first.paymentId).toMatch(/^acct_/);
    expect(await account().authorise(request)).toEqual(first);
    expect(await account().authorise({ ...request, amount: AUD(5_001) })).toMatchObject({
      outcome: 'gateway_error',
      code: 'IDEMPOTENCY_KEY_REUSED',
      retryable: false,
    });
    const holds = (await accountEntries(database.db, owner)).filter((e) => e.idempotencyKey === k);
    expect(holds).toHaveLength(1);
  });

  it('capture charges the account once per key, never beyond the hold; a released hold cannot be charged', async () => {
    const held = await account().authorise({
      idempotencyKey: key('a'),
      amount: AUD(3_000),
      cardToken: '',
      reference: 'p2',
    });
    if (held.outcome !== 'approved') throw new Error(held.outcome);
    const { paymentId } = held;
    const k = key('capture');
    const first = await account().capture({ idempotencyKey: k, paymentId, amount: AUD(3_000) });
    expect(first).toEqual({ outcome: 'captured', paymentId, amount: AUD(3_000) });
    expect(await account().capture({ idempotencyKey: k, paymentId, amount: AUD(3_000) })).toEqual(first);
    expect(await account().capture({ idempotencyKey: key('again'), paymentId, amount: AUD(1) })).toMatchObject({
      outcome: 'rejected',
      code: 'AMOUNT_EXCEEDS_AUTHORISED',
    });
    expect(await account().void({ idempotencyKey: key('void'), paymentId })).toMatchObject({
      outcome: 'rejected',
      code: 'ALREADY_CAPTURED',
    });

    const other = await account().authorise({
      idempotencyKey: key('a'),
      amount: AUD(900),
      cardToken: '',
      reference: 'p3',
    });
    if (other.outcome !== 'approved') throw new Error(other.outcome);
    const released = await account().void({ idempotencyKey: key('void'), paymentId: other.paymentId });
    expect(released).toEqual({ outcome: 'voided', paymentId: other.paymentId, amount: AUD(900) });
    expect(
      await account().capture({ idempotencyKey: key('late'), paymentId: other.paymentId, amount: AUD(900) }),
    ).toMatchObject({ outcome: 'rejected', code: 'NOT_AUTHORISED' });
    expect(
      await account().capture({ idempotencyKey: key('none'), paymentId: 'acct_unknown', amount: AUD(1) }),
    ).toMatchObject({ outcome: 'rejected', code: 'PAYMENT_NOT_FOUND' });
  });

  it('refund credits the account, in parts, never more than was charged; a replay credits nothing more', async () => {
    const paymentId = await heldAndCharged(10_000);
    const k = key('refund');
    expect(await account().refund({ idempotencyKey: k, paymentId, amount: AUD(4_000) })).toEqual({
      outcome: 'refunded',
      paymentId,
      amount: AUD(4_000),
    });
    expect(await account().refund({ idempotencyKey: k, paymentId, amount: AUD(4_000) })).toMatchObject({
      outcome: 'refunded',
    });
    expect(await account().refund({ idempotencyKey: key('r2'), paymentId, amount: AUD(6_001) })).toMatchObject({
      outcome: 'rejected',
      code: 'AMOUNT_EXCEEDS_CAPTURED',
    });
    expect(
      await account().refund({ idempotencyKey: key('r3'), paymentId, amount: { amountMinor: 1, currency: 'NZD' } }),
    ).toMatchObject({ outcome: 'rejected', code: 'CURRENCY_MISMATCH' });
    expect(await account().refund({ idempotencyKey: key('r4'), paymentId, amount: AUD(6_000) })).toMatchObject({
      outcome: 'refunded',
    });
    const entries = (await accountEntries(database.db, owner)).filter((e) => e.paymentId === paymentId);
    expect(entries.map((e) => [e.kind, e.amountMinor])).toEqual([
      ['hold', 10_000],
      ['charge', 10_000],
      ['credit', 4_000],
      ['credit', 6_000],
    ]);
    expect(balanceOf(entries)).toBe(0);
  });

  it('concurrent calls under one key write one entry and answer alike', async () => {
    const paymentId = await heldAndCharged(2_000);
    const k = key('race');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => account().refund({ idempotencyKey: k, paymentId, amount: AUD(2_000) })),
    );
    for (const answer of answers) expect(answer).toEqual({ outcome: 'refunded', paymentId, amount: AUD(2_000) });
    const credits = (await accountEntries(database.db, owner)).filter(
      (e) => e.paymentId === paymentId && e.kind === 'credit',
    );
    expect(credits).toHaveLength(1);
  });

  it('ON_ACCOUNT routes to the partner account, never to the card gateway', async () => {
    const card = new Proxy({} as PaymentGateway, {
      get: () => () => {
        throw new Error('the card gateway was asked');
      },
    });
    // The staging defaults: every brand's card gateway is the one configured (here, `card`).
    const context: AppContext = { config: loadConfig({}), db: database.db, clock: () => now };
    const gateways = paymentGatewaysFor(context, card);
    expect(gateways.gatewayFor({ brandCode: 'brandau', paymentMethod: 'CARD', partnerId: 7 })).toBe(card);
    const onAccount = gateways.gatewayFor({ brandCode: 'brandau', paymentMethod: 'ON_ACCOUNT', partnerId: 8 });
    expect(onAccount).toBeInstanceOf(AccountGateway);
    const held = await onAccount.authorise({
      idempotencyKey: key('route'),
      amount: AUD(100),
      cardToken: '',
      reference: 'p9',
    });
    expect(held.outcome).toBe('approved');
    expect(await accountEntries(database.db, { partnerId: 8, brandCode: 'brandau' })).toHaveLength(1);
  });
});
