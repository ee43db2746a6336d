import { PAYMENT_METHODS } from '../kernel/money/payment-methods.js';
import { Type, type Static } from 'typebox';
import { Validation } from '../kernel/notifications/notification.js';
import { PAYMENT_RESULTS, THREE_DS_STATUSES } from '../payments/gateway.js';
import { ClientInfo, Quote, QuoteStage } from '../quotes/schemas.js';
import { Flag, Long, Maybe, ShortText, Text } from '../quotes/schemas/common.js';
import { RegulatoryDeclarationInput, TravelClearOptionInput } from '../quotes/schemas/input.js';

/** Shapes of `POST /quotes/v2/{brandCode}/purchase` (spec §2.3, §4.2). Every field is optional. */

const validation = Maybe(Validation);

export const PolicyHolderInputMinimum = Type.Object(
  {
    dateOfBirth: Maybe(
      Text('Date of birth, YYYY-MM-DD; must equal the priced one (ages are not re-priced at purchase).', 30),
    ),
    firstName: Maybe(Text('First name.', 100)),
    lastName: Maybe(Text('Last name.', 100)),
    phoneNumber: Maybe(ShortText('Phone number.')),
    emailAddress: Maybe(Text('E-mail address.', 254)),
    travelClearOption: Maybe(TravelClearOptionInput),
    residentIdentifier: Maybe(ShortText('Resident identifier.')),
    validation,
  },
  {
    title: 'PolicyHolderInputMinimum',
    description: 'Details completing the stored holder at the same position (spec §2.2 PolicyHolderInputMinimum).',
  },
);

export const QuoteInputMinimum = Type.Object(
  {
    policyHolders: Maybe(Type.Array(PolicyHolderInputMinimum, { maxItems: 20 })),
    regulatoryDeclarations: Maybe(Type.Array(RegulatoryDeclarationInput, { maxItems: 50 })),
    validation,
  },
  {
    title: 'QuoteInputMinimum',
    description: 'What the purchase adds to the stored quote (spec §2.2 QuoteInputMinimum).',
  },
);

export const PartnerSummary = Type.Object(
  {
    id: Maybe(Long("Ignored: the partner is the token's.")),
    name: Maybe(Text('Ignored.')),
    code: Maybe(ShortText('Ignored.')),
    statusCode: Maybe(ShortText('Ignored.')),
    isOnAccountPurchaseEnabled: Maybe(
      Flag("Ignored: the partner's stored flag decides whether `paymentMethod: ON_ACCOUNT` is allowed."),
    ),
  },
  {
    title: 'PartnerSummary',
    description: "Spec §2.2 PartnerSummary; ignored on purchase (the partner is the token's).",
  },
);

export const QuoteMinimum = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, description: 'Extension: the id of the stored quote to buy.' }),
    isPurchaseInitiated: Maybe(Flag('Ignored (server-owned).')),
    stage: Maybe(QuoteStage),
    input: Maybe(QuoteInputMinimum),
    evaluatedPartner: Maybe(PartnerSummary),
    clientInfo: Maybe(ClientInfo),
    customerUserId: Maybe(Long("Ignored: the stored quote's customer is kept.")),
    brandCode: Maybe(ShortText("Ignored: the path's brand is used.")),
    validation,
  },
  { title: 'QuoteMinimum', description: 'The quote to buy (spec §2.2 QuoteMinimum, plus the extension `id`).' },
);

export const CardTokenInput = Type.Object(
  {
    token: Maybe(
      Type.String({
        maxLength: 200,
        description: 'A tokenised card from the payment page; never a card number. Answers mask it.',
      }),
    ),
    source: Maybe(ShortText('Where the token came from (echoed).')),
    validation,
  },
  { title: 'CardTokenInput', description: 'Spec §2.3 CardTokenInput.' },
);

export const BrowserInfo = Type.Object(
  {
    color: Maybe(ShortText('Colour depth.')),
    height: Maybe(ShortText('Screen height.')),
    width: Maybe(ShortText('Screen width.')),
    tzOffset: Maybe(ShortText('Time zone offset.')),
    javaEnabled: Maybe(ShortText('Java enabled.')),
  },
  { title: 'BrowserInfo', description: 'Spec §2.3 BrowserInfo.' },
);

export const ThreeDsRequestInfo = Type.Object(
  {
    userAgent: Maybe(Text('Cardholder browser user agent.', 500)),
    acceptHeader: Maybe(Text('Cardholder browser Accept header.', 500)),
    acceptLanguage: Maybe(Text('Cardholder browser Accept-Language.', 200)),
    origin: Maybe(Text('Origin of the payment page.', 500)),
    threeDSStatus: Maybe(ShortText('On a continuation: `CHALLENGE_COMPLETED` or `CHALLENGE_FAILED`.')),
    threeDSRequest: Maybe(
      Text('On a continuation: the `threeDSResponse` URL received (or its last segment, the challenge id).', 500),
    ),
    browserInfo: Maybe(BrowserInfo),
  },
  {
    title: 'ThreeDsRequestInfo',
    description:
      'Extension on the request (spec §2.3 ThreeDsRequestInfo): sent to continue a purchase after a 3-D Secure challenge.',
  },
);

export const ThreeDsResponseInfo = Type.Object(
  {
    threeDSStatus: Maybe(
      Type.Enum([...THREE_DS_STATUSES], {
        type: 'string',
        description: 'See docs/api-contract.md, "Payments".',
      }),
    ),
    threeDSRequestPattern: Maybe(
      Type.Enum(['REDIRECT'], {
        type: 'string',
        description: "`REDIRECT`: open `threeDSResponse` in the cardholder's browser.",
      }),
    ),
    threeDSResponse: Maybe(Text('The challenge URL.', 1000)),
  },
  { title: 'ThreeDsResponseInfo', description: 'Spec §2.3 ThreeDsResponseInfo.' },
);

export const PurchaseRequest = Type.Object(
  {
    quote: QuoteMinimum,
    cardToken: Maybe(CardTokenInput),
    threeDSRequestInfo: Maybe(ThreeDsRequestInfo),
    paymentMethod: Maybe(
      Type.Enum([...PAYMENT_METHODS], {
        type: 'string',
        description:
          'Extension: how the policy is paid. CARD (the default when absent): the tokenised card in `cardToken`. ON_ACCOUNT: owed by the partner and settled on its monthly statement, for partners with `isOnAccountPurchaseEnabled` only (else 403 `ON_ACCOUNT_NOT_ENABLED`); no `cardToken` (one sent is refused with 400 `CARD_TOKEN_NOT_ACCEPTED`). The policy is issued at once.',
      }),
    ),
    validation,
  },
  {
    title: 'PurchaseRequest',
    examples: [
      {
        quote: {
          id: 'q_01JD8ZQ6M4X3K9V2T7B5N1C0RA',
          input: {
            policyHolders: [{ firstName: 'Alex', lastName: 'Smith', emailAddress: 'alex.smith@example.com' }],
            regulatoryDeclarations: [{ termConditionId: 12, hasAgreed: true }],
          },
        },
        cardToken: { token: 'tok_sandbox_approve', source: 'hosted-page' },
      },
      {
        quote: {
          id: 'q_01JD8ZQ6M4X3K9V2T7B5N1C0RB',
          input: { regulatoryDeclarations: [{ termConditionId: 12, hasAgreed: true }] },
        },
        paymentMethod: 'ON_ACCOUNT',
      },
    ],
    description:
      'Purchase request (spec §4.2, minimal payload). Prices, status, policy number and partner ids in the body are ignored.',
  },
);
export type PurchaseRequest = Static<typeof PurchaseRequest>;

export const PurchaseResponse = Type.Object(
  {
    quote: Maybe(Quote),
    cardToken: Maybe(CardTokenInput),
    threeDSRequestInfo: Maybe(ThreeDsRequestInfo),
    paymentIds: Maybe(ShortText("The gateway's payment id of this attempt.")),
    threeDSResponseInfo: Maybe(ThreeDsResponseInfo),
    paymentResult: Maybe(
      Type.Enum([...PAYMENT_RESULTS], {
        type: 'string',
        description: 'Outcome of the payment step; absent when no payment was tried.',
      }),
    ),
    paymentMethod: Maybe(
      Type.Enum([...PAYMENT_METHODS], {
        type: 'string',
        description: 'CARD: a tokenised payment card; ON_ACCOUNT: owed by the partner, on its monthly statement.',
      }),
    ),
    validation,
  },
  {
    title: 'PurchaseResponse',
    description: 'Purchase outcome with the quote (spec §4.2).',
    examples: [
      {
        quote: {
          id: 'q_01JD8ZQ6M4X3K9V2T7B5N1C0RA',
          isPurchased: true,
          isPurchaseInitiated: true,
          policyNumber: 'TIAU260000042',
          stage: 'PAYMENT',
          validation: { isValid: true, errors: [] },
        },
        cardToken: { token: 'tok_…rove', source: 'hosted-page' },
        paymentIds: 'pay_7Q2M4X',
        threeDSResponseInfo: { threeDSStatus: 'NOT_REQUIRED' },
        paymentResult: 'APPROVED',
        paymentMethod: 'CARD',
        validation: { isValid: true, errors: [] },
      },
      {
        quote: {
          id: 'q_01JD8ZQ6M4X3K9V2T7B5N1C0RB',
          isPurchased: true,
          isPurchaseInitiated: true,
          policyNumber: 'TIAU260000043',
          stage: 'PAYMENT',
          validation: { isValid: true, errors: [] },
        },
        paymentIds: 'acct_019380f2-5c1e-7a3b-9d4e-2f6a8b0c1d2e',
        threeDSResponseInfo: { threeDSStatus: 'NOT_REQUIRED' },
        paymentResult: 'APPROVED',
        paymentMethod: 'ON_ACCOUNT',
        validation: { isValid: true, errors: [] },
      },
    ],
  },
);
export type PurchaseResponse = Static<typeof PurchaseResponse>;
export type ThreeDsRequestInfo = Static<typeof ThreeDsRequestInfo>;
export type PolicyHolderInputMinimum = Static<typeof PolicyHolderInputMinimum>;
