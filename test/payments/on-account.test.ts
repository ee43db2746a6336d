import { Writable } from 'node:stream';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerAuthCommands } from '../../src/auth/cli.js';
import { accountEntries } from '../../src/payments/account/repository.js';
import { balanceOf } from '../../src/payments/account/ledger.js';
import type { TestApp } from '../helpers/app.js';
import { useTestApp } from '../helpers/app.js';
import { bearerFor, TEST_PARTNERS } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { eventsOfPolicy } from '../events/support.js';
import { getStatements, statementOf } from '../statements/support.js';
import type { StatementList } from '../../src/statements/schemas.js';
import { CARDS, NOW, purchase, purchaseBody, readyQuote, type PurchaseAnswer } from '../purchases/support.js';
import {
  confirm,
  details,
  detailedTrip,
  previewAmendment,
  previewCancellation,
  summary,
  type ChangeAnswer,
  type ConfirmAnswer,
} from '../policy-changes/support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

/** The partner's statement months at brandau (partner A). */
async function statementMonths(t: TestApp): Promise<StatementList['statements']> {
  const res = await getStatements(t, '');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<StatementList>().statements;
}

/** Runs `partner on-account …` in-process against the test app's database, as an operator would. */
async function cli(...args: string[]): Promise<string> {
  let output = '';
  const program = new Command().exitOverride();
  registerAuthCommands(program, {
    config: () => getApp().context.config,
    stdout: new Writable({
      write(chunk: Buffer, _enc, done) {
        output += chunk.toString();
        done();
      },
    }),
  });
  await program.parseAsync(['node', 'partner-api', 'partner', 'on-account', ...args]);
  return output;
}

/** A purchase body paying on account: no card. */
function onAccountBody(quote: { id: string; termIds: number[] }) {
  const { cardToken: _card, ...body } = purchaseBody(quote, '');
  return { ...body, paymentMethod: 'ON_ACCOUNT' };
}

async function partnerId(t: TestApp, partner: 'A' | 'B'): Promise<number> {
  const row = await t.context.db
    .selectFrom('partner')
    .select('id')
    .where('code', '=', TEST_PARTNERS[partner])
    .executeTakeFirstOrThrow();
  return row.id;
}

/** What the card gateway (the sandbox) has recorded: every call it answered leaves a row. */
async function cardCalls(t: TestApp): Promise<number> {
  const rows = await t.context.db.selectFrom('sandbox_operation').select('id').execute();
  return rows.length;
}

async function purchasesOf(t: TestApp, quoteId: string) {
  return t.context.db
    .selectFrom('purchase')
    .select(['state', 'payment_method'])
    .where('quote_id', '=', quoteId)
    .execute();
}

describe(`on-account purchases (${DIALECT})`, () => {
  it('a partner without the flag is refused before anything is recorded; the CLI switches it, the next request follows', async () => {
    const t = getApp();
    await bearerFor(t, 'brandau', 'B');
    const quote = await readyQuote(t, 'brandau', 'B');
    const refused = await purchase(t, onAccountBody(quote), { partner: 'B', key: 'b-on-account-1' });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.body).toContain('ON_ACCOUNT_NOT_ENABLED');
    expect(refused.body).toContain('"property":"paymentMethod"');
    expect(await purchasesOf(t, quote.id)).toEqual([]);
    expect(await accountEntries(t.context.db, { partnerId: await partnerId(t, 'B'), brandCode: 'brandau' })).toEqual(
      [],
    );
    const stored = await t.context.db
      .selectFrom('quote')
      .select('is_purchase_initiated')
      .where('public_id', '=', quote.id)
      .executeTakeFirstOrThrow();
    expect(stored.is_purchase_initiated).toBe(0);

    expect(await cli('enable', TEST_PARTNERS.B)).toBe(`On-account purchases enabled for partner ${TEST_PARTNERS.B}.\n`);
    // The same key: a refusal was not kept, so the retry runs and now buys.
    const bought = await purchase(t, onAccountBody(quote), { partner: 'B', key: 'b-on-account-1' });
    expect(bought.statusCode, bought.body).toBe(200);
    expect(bought.json<PurchaseAnswer>()).toMatchObject({ paymentMethod: 'ON_ACCOUNT', paymentResult: 'APPROVED' });

    expect(await cli('disable', TEST_PARTNERS.B)).toContain('disabled');
    const next = await readyQuote(t, 'brandau', 'B');
    expect((await purchase(t, onAccountBody(next), { partner: 'B' })).statusCode).toBe(403);
    await expect(cli('enable', 'NOSUCHPARTNER')).rejects.toThrow(/does not exist/);
  });

  it('a card token sent with ON_ACCOUNT is refused (400), nothing recorded', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const res = await purchase(t, { ...onAccountBody(quote), cardToken: { token: CARDS.approved } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toContain('CARD_TOKEN_NOT_ACCEPTED');
    expect(await purchasesOf(t, quote.id)).toEqual([]);
  });

  it('purchase → amendment charged → cancellation credited, all on the account; the card gateway never asked', async () => {
    const t = getApp();
    await bearerFor(t, 'brandau', 'A');
    await cli('enable', TEST_PARTNERS.A);
    const owner = { partnerId: await partnerId(t, 'A'), brandCode: 'brandau' };
    const before = await accountEntries(t.context.db, owner);
    const cardCallsBefore = await cardCalls(t);

    const quote = await readyQuote(t);
    const res = await purchase(t, onAccountBody(quote), { key: 'walk-1' });
    expect(res.statusCode, res.body).toBe(200);
    const bought = res.json<PurchaseAnswer>();
    expect(bought.validation).toEqual({ isValid: true, errors: [] });
    expect(bought).toMatchObject({
      paymentMethod: 'ON_ACCOUNT',
      paymentResult: 'APPROVED',
      threeDSResponseInfo: { threeDSStatus: 'NOT_REQUIRED' },
    });
    expect(bought.cardToken).toBeUndefined();
    expect(bought.paymentIds).toMatch(/^acct_/);
    const policyNumber = bought.quote.policyNumber!;
    const replay = await purchase(t, onAccountBody(quote), { key: 'walk-1' });
    expect(replay.json()).toEqual(bought);

    // An amendment that costs more: charged to the account, no card; a card sent is refused.
    const longer = (
      await previewAmendment(t, policyNumber, { ...detailedTrip(bought.quote.input.planId), returnDate: '2026-12-30' })
    ).json<ChangeAnswer>();
    expect(longer.difference!.transactionAmount).toBeGreaterThan(0);
    const withCard = await confirm(t, policyNumber, 'amendments', longer.id!, {
      key: 'walk-amend-card',
      body: { cardToken: { token: CARDS.approved } },
    });
    expect(withCard.statusCode, withCard.body).toBe(400);
    expect(withCard.body).toContain('CARD_TOKEN_NOT_ACCEPTED');
    const charged = await confirm(t, policyNumber, 'amendments', longer.id!, { key: 'walk-amend' });
    expect(charged.statusCode, charged.body).toBe(200);
    const chargedBody = charged.json<ConfirmAnswer & { paymentMethod?: string }>();
    expect(chargedBody).toMatchObject({ paymentResult: 'APPROVED', paymentMethod: 'ON_ACCOUNT' });
    expect(chargedBody.paymentIds).toMatch(/^acct_/);

    // The partner's on-account purchases stopped after the sale: the policy's money stays on account.
    await cli('disable', TEST_PARTNERS.A);
    const cancel = (await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' })).json<ChangeAnswer>();
    const cancelled = await confirm(t, policyNumber, 'cancellations', cancel.id!, { key: 'walk-cancel' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const cancelledBody = cancelled.json<ConfirmAnswer & { paymentMethod?: string }>();
    expect(cancelledBody.validation.isValid, cancelled.body).toBe(true);
    expect(cancelledBody.paymentMethod).toBe('ON_ACCOUNT');
    expect(cancelledBody.policy.transactionValueAggregateAmount.amount).toBe(0);

    // The ledger agrees with the policy: a hold and a charge per payment, credits for the refund.
    const entries = (await accountEntries(t.context.db, owner)).slice(before.length);
    const minor = (major: number) => Math.round(major * 100);
    const transactions = await details(t, policyNumber);
    expect(transactions.map((d) => d.actionType)).toEqual(['Purchase', 'Amendment', 'Cancellation']);
    const [sale, amendment, cancellation] = transactions.map((d) => minor(d.financialSummary.transactionAmount));
    expect(entries.filter((e) => e.kind === 'hold').map((e) => e.amountMinor)).toEqual([sale, amendment]);
    expect(entries.filter((e) => e.kind === 'charge').map((e) => e.amountMinor)).toEqual([sale, amendment]);
    const credited = entries.filter((e) => e.kind === 'credit').reduce((sum, e) => sum + e.amountMinor, 0);
    expect(credited).toBe(-cancellation!);
    expect(entries.every((e) => e.paymentId.startsWith('acct_') && e.currency === 'AUD')).toBe(true);
    expect(balanceOf(entries)).toBe(minor((await summary(t, policyNumber)).transactionValueAggregateAmount.amount));
    const rows = await t.context.db
      .selectFrom('policy_detail')
      .innerJoin('policy_header', 'policy_header.id', 'policy_detail.policy_header_id')
      .select('policy_detail.payment_method')
      .where('policy_header.policy_number', '=', policyNumber)
      .execute();
    expect(rows.map((r) => r.payment_method)).toEqual(['ON_ACCOUNT', 'ON_ACCOUNT', 'ON_ACCOUNT']);

    // No call of this policy reached the card gateway.
    expect(await cardCalls(t)).toBe(cardCallsBefore);

    // The payment events say how the money moved.
    const events = await eventsOfPolicy(t, policyNumber);
    const payments = events.filter((e) => e.type.startsWith('payment.'));
    expect(payments.map((e) => [e.type, e.data.paymentMethod])).toEqual([
      ['payment.captured', 'ON_ACCOUNT'],
      ['payment.captured', 'ON_ACCOUNT'],
      ['payment.refunded', 'ON_ACCOUNT'],
    ]);

    // The partner's statement of that month lists the three transactions on account, and its
    // on-account figures agree with the ledger (every on-account payment of this partner and brand).
    const statements = await Promise.all((await statementMonths(t)).map((m) => statementOf(t, m.month)));
    const statement = statements.find((one) => one.transactions.some((line) => line.policyNumber === policyNumber));
    if (!statement) throw new Error('no statement lists the walk');
    const lines = statement.transactions.filter((line) => line.policyNumber === policyNumber);
    expect(lines.map((line) => [line.action, line.paymentMethod, minor(line.total)])).toEqual([
      ['Purchase', 'ON_ACCOUNT', sale],
      ['Amendment', 'ON_ACCOUNT', amendment],
      ['Cancellation', 'ON_ACCOUNT', cancellation],
    ]);
    const account = statement.onAccount;
    expect(minor(account.balanceBroughtForward)).toBe(0);
    const owed = minor(account.charged) - minor(account.credited);
    expect(owed).toBe(balanceOf(await accountEntries(t.context.db, owner)));
    expect(minor(account.due)).toBe(owed);
  });

  it('card purchases are unchanged: CARD when absent, through the card gateway, nothing on any account', async () => {
    const t = getApp();
    const owner = { partnerId: await partnerId(t, 'A'), brandCode: 'brandau' };
    const before = (await accountEntries(t.context.db, owner)).length;
    const quote = await readyQuote(t);
    const res = await purchase(t, purchaseBody(quote, CARDS.approved));
    expect(res.json<PurchaseAnswer>()).toMatchObject({ paymentMethod: 'CARD', paymentResult: 'APPROVED' });
    expect(await accountEntries(t.context.db, owner)).toHaveLength(before);
    const events = await eventsOfPolicy(t, res.json<PurchaseAnswer>().quote.policyNumber!);
    expect(events.find((e) => e.type === 'payment.captured')?.data.paymentMethod).toBe('CARD');
  });
});
