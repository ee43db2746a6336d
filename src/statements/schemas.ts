import { Type, type Static } from 'typebox';
import { BrandCodeParam } from '../http/schemas.js';
import { PAYMENT_METHODS } from '../kernel/money/payment-methods.js';
import { PolicyActionTypeSchema } from '../policies/schemas-detail.js';
import { STATEMENT_STATUSES } from './model.js';
import { MONTH_PATTERN } from './months.js';

/** TypeBox shapes of the statements routes; descriptions become the OpenAPI text partners read. */

const amount = (description: string) => Type.Number({ description: `${description} Major units of \`currencyCode\`.` });
const utc = (description: string) => Type.String({ format: 'date-time', description });

const PaymentMethodSchema = Type.Enum([...PAYMENT_METHODS], {
  type: 'string',
  description: 'How the transaction was paid: `CARD` through the card gateway, `ON_ACCOUNT` owed on this statement.',
});

const Month = Type.String({
  pattern: MONTH_PATTERN,
  description: 'A calendar month of the brand’s time zone, `yyyy-mm`.',
  examples: ['2026-11'],
});

export const StatementParams = Type.Object({
  brandCode: BrandCodeParam,
  // Checked by the service, so a bad month gets the statements' own error (INVALID_STATEMENT_MONTH).
  month: Type.String({
    description: 'The month, `yyyy-mm` (e.g. `2026-11`), in the brand’s time zone.',
    examples: ['2026-11'],
  }),
});

const StatementMonthFields = {
  month: Month,
  status: Type.Enum([...STATEMENT_STATUSES], {
    type: 'string',
    description:
      '`OPEN` while the month runs (and a minute after it ended); `CLOSED` after: its figures never change again.',
  }),
  from: utc('The month’s first instant (UTC), inclusive.'),
  to: utc('The next month’s first instant (UTC), exclusive.'),
};

export const StatementMonthSummary = Type.Object(StatementMonthFields, {
  title: 'StatementMonth',
  description: 'A month with a statement.',
});

export const StatementList = Type.Object(
  {
    statements: Type.Array(StatementMonthSummary, {
      description:
        'The months in which you had a transaction or made a payment under the brand, newest first (empty when none).',
    }),
  },
  {
    title: 'StatementList',
    examples: [
      {
        statements: [
          { month: '2026-11', status: 'OPEN', from: '2026-10-31T13:00:00.000Z', to: '2026-11-30T13:00:00.000Z' },
          { month: '2026-10', status: 'CLOSED', from: '2026-09-30T14:00:00.000Z', to: '2026-10-31T13:00:00.000Z' },
        ],
      },
    ],
  },
);
export type StatementList = Static<typeof StatementList>;

const StatementTax = Type.Object(
  { name: Type.String({ description: 'e.g. `GST`, `Stamp duty`.' }), amount: amount('The tax.') },
  { title: 'StatementTax' },
);

const moneyFields = {
  premium: amount('Premium (a change’s change of premium; negative when refunded).'),
  discount: amount('Discount taken off the premium.'),
  taxes: Type.Array(StatementTax, { description: 'Each tax by name, in name order.' }),
  donation: amount('Charitable donation.'),
  fees: amount('Fees of amendments and cancellations.'),
  total: amount('premium − discount + taxes + donation + fees; negative for a refund.'),
};

const StatementTransaction = Type.Object(
  {
    policyNumber: Type.String(),
    policyDetailNumber: Type.String({ description: 'The transaction’s detail number (policy details).' }),
    action: PolicyActionTypeSchema('What the transaction was.'),
    committedAt: utc('When it committed (UTC): the month it falls in.'),
    paymentMethod: PaymentMethodSchema,
    ...moneyFields,
  },
  { title: 'StatementTransaction', description: 'One policy transaction.' },
);

const StatementTotals = Type.Object(
  {
    paymentMethod: PaymentMethodSchema,
    transactionCount: Type.Integer({ minimum: 0 }),
    ...moneyFields,
  },
  { title: 'StatementTotals', description: 'The sums of the month’s transactions paid one way.' },
);

const PaymentReceivedSchema = Type.Object(
  {
    reference: Type.String({ description: 'Your (or the bank’s) reference.' }),
    amount: amount('What you paid.'),
    receivedOn: Type.String({ format: 'date', description: 'The day it was received, in the brand’s time zone.' }),
  },
  { title: 'StatementPaymentReceived' },
);

const OnAccount = Type.Object(
  {
    balanceBroughtForward: amount('What was due at the end of the previous month.'),
    charged: amount('On-account transactions that charged (purchases, amendments that cost more).'),
    credited: amount('On-account refunds (amendments that cost less, cancellations), positive.'),
    paymentsReceived: amount('Payments received from you this month.'),
    due: amount('balanceBroughtForward + charged − credited − paymentsReceived; negative when in credit.'),
    payments: Type.Array(PaymentReceivedSchema),
  },
  { title: 'StatementOnAccount', description: 'What you owe for on-account purchases.' },
);

export const StatementSchema = Type.Object(
  {
    brandCode: BrandCodeParam,
    ...StatementMonthFields,
    timeZone: Type.String({ description: 'The brand’s time zone (IANA), in which the month is counted.' }),
    currencyCode: Type.String({ pattern: '^[A-Z]{3}$' }),
    transactions: Type.Array(StatementTransaction, { description: 'Every transaction of the month, oldest first.' }),
    totals: Type.Array(StatementTotals, {
      description: 'One per payment method (`CARD`, `ON_ACCOUNT`), every one listed.',
    }),
    onAccount: OnAccount,
  },
  {
    title: 'Statement',
    description: 'Your statement of one month under the brand.',
    examples: [
      {
        brandCode: 'brandau',
        month: '2026-11',
        status: 'CLOSED',
        from: '2026-10-31T13:00:00.000Z',
        to: '2026-11-30T13:00:00.000Z',
        timeZone: 'Australia/Sydney',
        currencyCode: 'AUD',
        transactions: [
          {
            policyNumber: 'CTI-AU-2026-000001',
            policyDetailNumber: 'CTI-AU-2026-000001-1',
            action: 'Purchase',
            committedAt: '2026-11-02T01:02:03.000Z',
            paymentMethod: 'ON_ACCOUNT',
            premium: 200,
            discount: 0,
            taxes: [{ name: 'GST', amount: 20 }],
            donation: 0,
            fees: 0,
            total: 220,
          },
        ],
        totals: [
          {
            paymentMethod: 'CARD',
            transactionCount: 0,
            premium: 0,
            discount: 0,
            taxes: [],
            donation: 0,
            fees: 0,
            total: 0,
          },
          {
            paymentMethod: 'ON_ACCOUNT',
            transactionCount: 1,
            premium: 200,
            discount: 0,
            taxes: [{ name: 'GST', amount: 20 }],
            donation: 0,
            fees: 0,
            total: 220,
          },
        ],
        onAccount: {
          balanceBroughtForward: 100,
          charged: 220,
          credited: 0,
          paymentsReceived: 100,
          due: 220,
          payments: [{ reference: 'BANK-2026-11-07', amount: 100, receivedOn: '2026-11-07' }],
        },
      },
    ],
  },
);
export type StatementSchema = Static<typeof StatementSchema>;
