import { stringify } from 'csv-stringify/sync';
import { minorDigits } from '../kernel/money/units.js';
import type { MoneyParts, PartnerStatement } from './model.js';

/**
 * A statement as CSV (RFC 4180, header row, CRLF): one row per transaction, then a `TOTAL` row per
 * payment method, a `PAYMENT_RECEIVED` row per payment, and the on-account rows
 * (`BALANCE_BROUGHT_FORWARD`, `CHARGED`, `CREDITED`, `PAYMENTS_RECEIVED`, `DUE`), their amount in
 * `total`. Each tax of the month has its own column `tax:<name>`. Amounts are plain decimals
 * with the currency's decimals, negative for refunds (docs/api-contract.md, "Statements").
 */
export const CSV_RECORDS = [
  'TRANSACTION',
  'TOTAL',
  'PAYMENT_RECEIVED',
  'BALANCE_BROUGHT_FORWARD',
  'CHARGED',
  'CREDITED',
  'PAYMENTS_RECEIVED',
  'DUE',
] as const;
type CsvRecord = (typeof CSV_RECORDS)[number];

const FIXED_COLUMNS = [
  'record',
  'month',
  'date',
  'policyNumber',
  'policyDetailNumber',
  'action',
  'paymentMethod',
  'transactionCount',
  'reference',
  'currencyCode',
  'premium',
  'discount',
] as const;

/** Text a spreadsheet would take for a formula is kept text (OWASP, CSV injection). */
const inert = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

export function statementCsv(statement: PartnerStatement): string {
  const digits = minorDigits(statement.currencyCode);
  const decimal = (minor: number) => (minor / 10 ** digits).toFixed(digits);
  const taxNames = [...new Set(statement.lines.flatMap((l) => l.taxes.map((t) => t.name)))].sort((a, b) =>
    a.localeCompare(b),
  );
  const header = [...FIXED_COLUMNS, ...taxNames.map((name) => inert(`tax:${name}`)), 'donation', 'fees', 'total'];
  const month = statement.period.month;
  const row = (
    record: CsvRecord,
    fields: Partial<Record<(typeof FIXED_COLUMNS)[number], string>>,
    money?: MoneyParts,
    total?: number,
  ) => {
    const fixed = FIXED_COLUMNS.map((column) => fields[column] ?? '');
    fixed[0] = record;
    fixed[1] = month;
    fixed[9] = statement.currencyCode;
    if (!money) return [...fixed, ...taxNames.map(() => ''), '', '', total === undefined ? '' : decimal(total)];
    fixed[10] = decimal(money.premiumMinor);
    fixed[11] = decimal(money.discountMinor);
    const taxes = taxNames.map((name) => decimal(money.taxes.find((t) => t.name === name)?.amountMinor ?? 0));
    return [...fixed, ...taxes, decimal(money.donationMinor), decimal(money.feesMinor), decimal(money.totalMinor)];
  };
  const { onAccount } = statement;
  const rows = [
    header,
    ...statement.lines.map((line) =>
      row(
        'TRANSACTION',
        {
          date: line.committedAt,
          policyNumber: line.policyNumber,
          policyDetailNumber: line.policyDetailNumber,
          action: line.action,
          paymentMethod: line.paymentMethod,
        },
        line,
      ),
    ),
    ...statement.totals.map((totals) =>
      row('TOTAL', { paymentMethod: totals.paymentMethod, transactionCount: String(totals.transactionCount) }, totals),
    ),
    ...onAccount.payments.map((payment) =>
      row(
        'PAYMENT_RECEIVED',
        { date: payment.receivedOn, paymentMethod: 'ON_ACCOUNT', reference: inert(payment.reference) },
        undefined,
        payment.amountMinor,
      ),
    ),
    row('BALANCE_BROUGHT_FORWARD', { paymentMethod: 'ON_ACCOUNT' }, undefined, onAccount.balanceBroughtForwardMinor),
    row('CHARGED', { paymentMethod: 'ON_ACCOUNT' }, undefined, onAccount.chargedMinor),
    row('CREDITED', { paymentMethod: 'ON_ACCOUNT' }, undefined, onAccount.creditedMinor),
    row('PAYMENTS_RECEIVED', { paymentMethod: 'ON_ACCOUNT' }, undefined, onAccount.paymentsReceivedMinor),
    row('DUE', { paymentMethod: 'ON_ACCOUNT' }, undefined, onAccount.dueMinor),
  ];
  return stringify(rows, { record_delimiter: 'windows' });
}
