import { PAYMENT_METHODS } from '../kernel/money/payment-methods.js';
import { Type, type Static } from 'typebox';
import { Validation } from '../kernel/notifications/notification.js';
import { PolicySummary } from '../policies/schemas.js';
import { ThreeDsResponseInfo } from '../purchases/schemas.js';
import { Maybe, Text } from '../quotes/schemas/common.js';
import { Amendment } from './schemas-amendment.js';
import { Cancellation } from './schemas-cancellation.js';
import { PolicyChangePaymentResult, RefundLine } from './schemas-shared.js';

export * from './schemas-amendment.js';
export * from './schemas-cancellation.js';
export * from './schemas-shared.js';

/** The answer of confirming an amendment or a cancellation (docs/api-contract.md, "Changing a policy"). */

export const PolicyChangeConfirmation = Type.Object(
  {
    policy: Maybe({ ...PolicySummary, description: 'The policy as it stands now (changed once `APPLIED`).' }),
    amendment: Maybe({ ...Amendment, description: 'The amendment confirmed (absent for a cancellation).' }),
    cancellation: Maybe({ ...Cancellation, description: 'The cancellation confirmed (absent for an amendment).' }),
    paymentResult: Maybe(PolicyChangePaymentResult),
    paymentMethod: Maybe(
      Type.Enum([...PAYMENT_METHODS], {
        type: 'string',
        description:
          "How the change's money moved: CARD, the policy's card; ON_ACCOUNT, the partner's account. Absent when no money moved.",
      }),
    ),
    paymentIds: Maybe(
      Text(
        'The gateway payment id of the charge, or the ids of the payments refunded (comma separated); absent when no money moved.',
        500,
      ),
    ),
    threeDSResponseInfo: Maybe({
      ...ThreeDsResponseInfo,
      description: 'When `status` is `CHALLENGE_REQUIRED`: the challenge to open in the cardholder’s browser.',
    }),
    refunds: Maybe(
      Type.Array(RefundLine, { maxItems: 50, description: 'The refunds paid, one per payment of the policy.' }),
    ),
    validation: Maybe(Validation),
  },
  {
    title: 'PolicyChangeConfirmation',
    description: 'Outcome of confirming a change: the change with its status, the payment or refunds, and the policy.',
    examples: [
      {
        policy: { policyNumber: 'TIAU260000042', sequenceNumber: 2, policyStatus: 'Cancelled' },
        cancellation: {
          id: '8b27e0d4-5c3f-4a19-b6e2-71d9f0c4a285',
          status: 'APPLIED',
          sequenceNumber: 2,
          refundAmount: 110,
        },
        paymentResult: 'REFUNDED',
        paymentMethod: 'CARD',
        paymentIds: 'pay_7Q2M4X',
        refunds: [{ paymentId: 'pay_7Q2M4X', amount: 110 }],
        validation: { isValid: true, errors: [] },
      },
    ],
  },
);
export type PolicyChangeConfirmation = Static<typeof PolicyChangeConfirmation>;
