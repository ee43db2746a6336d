import { brandOf, brandTimeZone } from '../catalogue/service.js';
import type { BrandCatalogue, CatalogueSnapshot } from '../catalogue/service.js';
import type { Clock } from '../context.js';
import type { Db } from '../db/database.js';
import type { BrandCode } from '../kernel/brands.js';
import { PAYMENT_METHODS } from '../kernel/money/payment-methods.js';
import { TRANSACTION_TYPE } from '../policies/model.js';
import {
  firstTransactionAt,
  hasTransactionsBetween,
  netCommittedBefore,
  transactionsCommittedBetween,
  type CommittedTransaction,
} from '../policies/repository-statement.js';
import { InvalidStatementMonth, StatementMonthInFuture, StatementNotFound } from './errors.js';
import type { MethodTotals, MoneyParts, PartnerStatement, StatementLine, StatementMonth, TaxAmount } from './model.js';
import { isMonth, monthOf, monthsAfter, monthsBetween, statementMonth } from './months.js';
import {
  monthsWithPayments,
  paymentsReceivedBefore,
  paymentsReceivedBetween,
  type AccountScope,
} from './repository.js';

/** What statements need: the database, the catalogue (the brand's zone and currency) and the clock. */
export interface StatementDeps {
  readonly db: Db;
  readonly catalogue: { snapshot(): Promise<CatalogueSnapshot> };
  readonly clock: Clock;
}

/** Whose statement: the caller's partner under the path's brand. */
export interface StatementScope extends AccountScope {
  readonly partnerCode: string;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** Taxes summed by name, in name order. */
function taxesOf(taxes: readonly TaxAmount[]): TaxAmount[] {
  const byName = new Map<string, number>();
  for (const tax of taxes) byName.set(tax.name, (byName.get(tax.name) ?? 0) + tax.amountMinor);
  return [...byName.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, amountMinor]) => ({ name, amountMinor }));
}

/** Sums of money parts; the total stays the sum of its parts. */
export function sumOf(parts: readonly MoneyParts[]): MoneyParts {
  return {
    premiumMinor: sum(parts.map((p) => p.premiumMinor)),
    discountMinor: sum(parts.map((p) => p.discountMinor)),
    taxes: taxesOf(parts.flatMap((p) => p.taxes)),
    donationMinor: sum(parts.map((p) => p.donationMinor)),
    feesMinor: sum(parts.map((p) => p.feesMinor)),
    totalMinor: sum(parts.map((p) => p.totalMinor)),
  };
}

/** A committed transaction as a statement line (its total counted as transaction-amounts.ts counts it). */
export function lineOf(transaction: CommittedTransaction): StatementLine {
  const of = (type: number) =>
    sum(transaction.money.filter((m) => m.transactionTypeId === type).map((m) => m.amountMinor));
  const taxes = taxesOf(
    transaction.money
      .filter((m) => m.transactionTypeId === TRANSACTION_TYPE.Tax)
      .map((m) => ({ name: m.name ?? 'Tax', amountMinor: m.amountMinor })),
  );
  const premiumMinor = of(TRANSACTION_TYPE.Premium);
  const discountMinor = of(TRANSACTION_TYPE.Discount);
  const donationMinor = of(TRANSACTION_TYPE.Donation);
  const feesMinor = of(TRANSACTION_TYPE.Fee);
  return {
    policyNumber: transaction.policyNumber,
    policyDetailNumber: transaction.policyDetailNumber,
    action: transaction.actionType,
    committedAt: transaction.committedAt,
    paymentMethod: transaction.paymentMethod,
    premiumMinor,
    discountMinor,
    taxes,
    donationMinor,
    feesMinor,
    totalMinor: premiumMinor - discountMinor + sum(taxes.map((t) => t.amountMinor)) + donationMinor + feesMinor,
  };
}

/** The totals of each payment method, every method listed. */
export function totalsOf(lines: readonly StatementLine[]): MethodTotals[] {
  return PAYMENT_METHODS.map((paymentMethod) => {
    const mine = lines.filter((l) => l.paymentMethod === paymentMethod);
    return { paymentMethod, transactionCount: mine.length, ...sumOf(mine) };
  });
}

interface BrandFacts {
  readonly brand: BrandCatalogue;
  readonly zone: string;
  readonly currentMonth: string;
  readonly now: Date;
}

async function brandFacts(deps: StatementDeps, brandCode: BrandCode): Promise<BrandFacts> {
  const snapshot = await deps.catalogue.snapshot();
  const brand = brandOf(snapshot, brandCode);
  const zone = brandTimeZone(snapshot, brand);
  const now = deps.clock();
  return { brand, zone, currentMonth: monthOf(now, zone), now };
}

/**
 * The months in which the partner had a transaction or made a payment under the brand, newest
 * first, each open or closed. Each month from the first activity on is probed by one indexed
 * existence query (a statement month's transactions, `policy_detail_created_idx`).
 */
export async function listStatements(deps: StatementDeps, scope: StatementScope): Promise<StatementMonth[]> {
  const { zone, currentMonth, now } = await brandFacts(deps, scope.brandCode);
  const first = await firstTransactionAt(deps.db, scope);
  const paid = new Set(await monthsWithPayments(deps.db, scope));
  const starts = [...paid, ...(first ? [monthOf(first, zone)] : [])].sort();
  const [earliest] = starts;
  if (earliest === undefined) return [];
  const months: StatementMonth[] = [];
  for (const month of monthsBetween(earliest, currentMonth).reverse()) {
    const period = statementMonth(month, zone, now);
    if (paid.has(month) || (await hasTransactionsBetween(deps.db, scope, period))) months.push(period);
  }
  return months;
}

/**
 * The partner's statement of one month under the brand: every transaction committed in it (in the
 * brand's time zone), the totals per payment method, and the on-account part. A closed month's
 * figures never change: transactions fall in the month they committed and a payment's day cannot
 * be in a closed month (`recordPayment`).
 */
export async function getStatement(
  deps: StatementDeps,
  scope: StatementScope,
  month: string,
): Promise<PartnerStatement> {
  if (!isMonth(month)) throw new InvalidStatementMonth(month);
  const { brand, zone, currentMonth, now } = await brandFacts(deps, scope.brandCode);
  if (month > currentMonth) throw new StatementMonthInFuture(month);
  const period = statementMonth(month, zone, now);
  const firstDay = `${month}-01`;
  const nextFirstDay = `${monthsAfter(month, 1)}-01`;
  const [transactions, payments, onAccountBefore, paidBefore] = await Promise.all([
    transactionsCommittedBetween(deps.db, scope, period),
    paymentsReceivedBetween(deps.db, scope, firstDay, nextFirstDay),
    netCommittedBefore(deps.db, scope, 'ON_ACCOUNT', period.from),
    paymentsReceivedBefore(deps.db, scope, firstDay),
  ]);
  if (month !== currentMonth && transactions.length === 0 && payments.length === 0) throw new StatementNotFound(month);
  const lines = transactions.map(lineOf);
  const onAccount = lines.filter((l) => l.paymentMethod === 'ON_ACCOUNT').map((l) => l.totalMinor);
  const chargedMinor = sum(onAccount.filter((t) => t > 0));
  const creditedMinor = -sum(onAccount.filter((t) => t < 0));
  const paymentsReceivedMinor = sum(payments.map((p) => p.amountMinor));
  const balanceBroughtForwardMinor = onAccountBefore - paidBefore;
  return {
    brandCode: scope.brandCode,
    partnerCode: scope.partnerCode,
    period,
    timeZone: zone,
    currencyCode: brand.brand.currencyCode,
    lines,
    totals: totalsOf(lines),
    onAccount: {
      balanceBroughtForwardMinor,
      chargedMinor,
      creditedMinor,
      paymentsReceivedMinor,
      dueMinor: balanceBroughtForwardMinor + chargedMinor - creditedMinor - paymentsReceivedMinor,
      payments,
    },
  };
}
