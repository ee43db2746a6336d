import { minorDigits, toMajor } from '../kernel/money/units.js';
import type { MoneyParts, PartnerStatement, StatementMonth } from './model.js';
import type { StatementList, StatementSchema } from './schemas.js';

/** The contract's answers from the domain's statement: minor units become the currency's major units. */

export const monthListOf = (months: readonly StatementMonth[]): StatementList => ({
  statements: months.map(({ month, status, from, to }) => ({ month, status, from, to })),
});

export function statementBody(statement: PartnerStatement): StatementSchema {
  const major = (minor: number) => toMajor(minor, minorDigits(statement.currencyCode));
  const money = (parts: MoneyParts) => ({
    premium: major(parts.premiumMinor),
    discount: major(parts.discountMinor),
    taxes: parts.taxes.map((t) => ({ name: t.name, amount: major(t.amountMinor) })),
    donation: major(parts.donationMinor),
    fees: major(parts.feesMinor),
    total: major(parts.totalMinor),
  });
  const { period, onAccount } = statement;
  return {
    brandCode: statement.brandCode,
    month: period.month,
    status: period.status,
    from: period.from,
    to: period.to,
    timeZone: statement.timeZone,
    currencyCode: statement.currencyCode,
    transactions: statement.lines.map((line) => ({
      policyNumber: line.policyNumber,
      policyDetailNumber: line.policyDetailNumber,
      action: line.action,
      committedAt: line.committedAt,
      paymentMethod: line.paymentMethod,
      ...money(line),
    })),
    totals: statement.totals.map((t) => ({
      paymentMethod: t.paymentMethod,
      transactionCount: t.transactionCount,
      ...money(t),
    })),
    onAccount: {
      balanceBroughtForward: major(onAccount.balanceBroughtForwardMinor),
      charged: major(onAccount.chargedMinor),
      credited: major(onAccount.creditedMinor),
      paymentsReceived: major(onAccount.paymentsReceivedMinor),
      due: major(onAccount.dueMinor),
      payments: onAccount.payments.map((p) => ({
        reference: p.reference,
        amount: major(p.amountMinor),
        receivedOn: p.receivedOn,
      })),
    },
  };
}
