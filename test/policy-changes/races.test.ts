import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { boughtPolicy, confirm, details, minor, moneyOf, NOW, previewAmendment, type ChangeAnswer } from './support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

describe(`policy changes: a refund racing a change that moves no money (${DIALECT})`, () => {
  it('one wins, the other gets 409, and no money moves without its transaction', async () => {
    const t = getApp();
    for (let round = 0; round < 3; round += 1) {
      const { policyNumber, input } = await boughtPolicy(t);
      const shorter = { ...input, returnDate: '2026-12-15' };
      const refund = (await previewAmendment(t, policyNumber, shorter)).json<ChangeAnswer>();
      const nothing = (await previewAmendment(t, policyNumber, input)).json<ChangeAnswer>();
      expect(refund.difference!.transactionAmount).toBeLessThan(0);
      expect(nothing.difference!.transactionAmount).toBe(0);
      const answers = await Promise.all([
        confirm(t, policyNumber, 'amendments', refund.id!, { key: `race-refund-${round}` }),
        confirm(t, policyNumber, 'amendments', nothing.id!, { key: `race-nothing-${round}` }),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      const transactions = await details(t, policyNumber);
      expect(transactions).toHaveLength(2);
      const books = await moneyOf(t, policyNumber);
      const charged = transactions.reduce((sum, d) => sum + minor(d.financialSummary.transactionAmount), 0);
      expect(books.captured - books.refunded).toBe(charged);
    }
  });
});
