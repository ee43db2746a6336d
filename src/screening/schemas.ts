import { Type, type Static } from 'typebox';
import { DOCUMENT_LANGUAGES } from '../documents/labels.js';
import { BrandParams } from '../http/schemas.js';
import { QuoteIdParam } from '../quotes/schemas.js';
import { CONDITION_OUTCOMES, TRAVELLER_OUTCOMES } from './model.js';
import { QUESTION_KINDS, SCREENING_STATUSES } from './model.js';

/** The screening API's bodies (issue 30). Amounts are doubles in major units, as quote prices. */

const Str = (description: string, maxLength = 200) => Type.String({ minLength: 1, maxLength, description });

export const ScreeningParams = Type.Object({
  ...BrandParams.properties,
  quoteId: QuoteIdParam,
  guid: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'The traveller: a `policyHolders[].guid` of the quote.',
  }),
});

export const AuthorizedPersonInput = Type.Object(
  {
    firstName: Str('First name.', 100),
    surname: Str('Surname.', 100),
    dateOfBirth: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD.' }),
    email: Str('E-mail address.', 254),
    phone: Str('Phone number.', 50),
  },
  {
    title: 'AuthorizedPersonInput',
    description: 'Who answers the screening for the traveller (spec §2.8 AuthorizedPerson).',
    additionalProperties: false,
  },
);

export const StartScreeningRequest = Type.Object(
  { authorizedPerson: AuthorizedPersonInput },
  {
    title: 'StartScreeningRequest',
    additionalProperties: false,
    examples: [
      {
        authorizedPerson: {
          firstName: 'Alex',
          surname: 'Smith',
          dateOfBirth: '1980-04-02',
          email: 'alex@example.com',
          phone: '+61 400 000 000',
        },
      },
    ],
  },
);

export const ScreeningAnswersRequest = Type.Object(
  {
    answers: Type.Array(
      Type.Object(
        {
          questionId: Str('A question id from `questions[].id`.', 200),
          choiceCodes: Type.Array(Str('A choice code of the question.', 100), { maxItems: 100 }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
  },
  {
    title: 'ScreeningAnswersRequest',
    description: 'Answers to add; answering a question again replaces its earlier answer.',
    additionalProperties: false,
    examples: [{ answers: [{ questionId: 'gate.a', choiceCodes: ['YES'] }] }],
  },
);

const AnswerChoice = Type.Object({ code: Type.String(), text: Type.String() }, { title: 'ScreeningChoice' });

export const ScreeningQuestion = Type.Object(
  {
    id: Type.String({ description: '`gate.<id>`, `travelMode`, `conditions` or `<conditionCode>.<id>`.' }),
    kind: Type.Enum([...QUESTION_KINDS], { type: 'string' }),
    conditionCode: Type.Optional(Type.String()),
    text: Type.String(),
    choices: Type.Array(AnswerChoice),
    multiple: Type.Boolean({ description: 'Several choices may be given (only `conditions`).' }),
  },
  { title: 'ScreeningQuestion' },
);

const Money = (description: string) => Type.Number({ description });

export const ConditionResult = Type.Object(
  {
    conditionCode: Type.String(),
    name: Type.String({ description: "In the quote's language." }),
    outcome: Type.Enum([...CONDITION_OUTCOMES], { type: 'string' }),
    score: Type.Number(),
    medicalPremium: Money('Major units of `currencyCode`.'),
    excess: Money('Major units of `currencyCode`.'),
  },
  { title: 'ScreeningConditionResult' },
);

export const ScreeningResult = Type.Object(
  {
    tamisReferenceNumber: Type.String({ description: 'Our reference: `TC-` and 16 Crockford base-32 characters.' }),
    screeningDate: Type.String({ description: 'YYYY-MM-DD (UTC) of completion.' }),
    authorizedPerson: Type.Optional(AuthorizedPersonInput),
    outcome: Type.Enum([...TRAVELLER_OUTCOMES], { type: 'string' }),
    score: Type.Number({ description: "The traveller's score (1.0 = standard risk)." }),
    conditions: Type.Array(ConditionResult, { description: 'Empty once the health detail is purged.' }),
    medicalPremium: Money('What cover for the conditions adds, major units of `currencyCode`.'),
    excess: Money('The extra excess, major units of `currencyCode`.'),
    signposting: Type.Boolean({ description: 'UK: the customer must be pointed to a medical cover directory.' }),
  },
  { title: 'ScreeningResult' },
);

export const Screening = Type.Object(
  {
    id: Type.String(),
    guid: Type.String({ description: 'The traveller.' }),
    status: Type.Enum([...SCREENING_STATUSES], {
      type: 'string',
      description: '`STALE`: the quote changed (destinations, days of cover, plan, date of birth) since; start again.',
    }),
    currencyCode: Type.String(),
    questions: Type.Array(ScreeningQuestion, {
      description: 'IN_PROGRESS: what to ask next; empty when complete may run.',
    }),
    result: Type.Optional(ScreeningResult),
  },
  {
    title: 'Screening',
    examples: [
      {
        id: '0193a0b4-6f1e-7c2a-9d1e-2b7c9e1f0a11',
        guid: 'traveller-1',
        status: 'IN_PROGRESS',
        currencyCode: 'AUD',
        questions: [
          {
            id: 'gate.a',
            kind: 'GATE',
            text: 'Have you a medical condition?',
            choices: [
              { code: 'YES', text: 'Yes' },
              { code: 'NO', text: 'No' },
            ],
            multiple: false,
          },
        ],
      },
    ],
  },
);
export type Screening = Static<typeof Screening>;

export const ScreeningLinkRequest = Type.Object(
  {
    returnUrl: Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        "The partner's page the traveller returns to, with `quoteId`, `travellerGuid` and `screeningStatus` added to its query (never conditions). An absolute `https` URL without credentials; outside production also `http` on 127.0.0.1 or localhost.",
    }),
    language: Type.Optional(
      Type.Enum([...DOCUMENT_LANGUAGES], {
        type: 'string',
        description: "The page's and the questions' language; default the quote's (`cultureCode`), else `en`.",
      }),
    ),
  },
  {
    title: 'ScreeningLinkRequest',
    additionalProperties: false,
    examples: [{ returnUrl: 'https://shop.partner.example/quote/screened', language: 'en' }],
  },
);

export const ScreeningLink = Type.Object(
  {
    url: Type.String({
      description: 'The hosted page: send the traveller there. Shown once; only its hash is stored.',
    }),
    expiresAt: Type.String({
      description: 'ISO date-time: `SCREENING_LINK_HOURS` (24) after now, never past the start (UTC) of departure day.',
    }),
    language: Type.Enum([...DOCUMENT_LANGUAGES], { type: 'string' }),
  },
  {
    title: 'ScreeningLink',
    examples: [
      {
        url: 'https://api.example.com/screening/v1/q3JtW0m1J7Z2kX8d1c9V0aH5yQ4pL6nR2sT8uW0xY3z',
        expiresAt: '2026-11-29T10:00:00.000Z',
        language: 'en',
      },
    ],
  },
);
export type ScreeningLink = Static<typeof ScreeningLink>;

export const ScreeningPageParams = Type.Object({
  value: Type.String({ minLength: 1, maxLength: 200, description: "The link's secret value (from `url`)." }),
});

/** The page's forms: every field a string or, repeated (ticked boxes), a list; read by screening/page-flow.ts. */
export const ScreeningPageForm = Type.Record(
  Type.String({ maxLength: 300 }),
  Type.Union([Type.String({ maxLength: 500 }), Type.Array(Type.String({ maxLength: 500 }), { maxItems: 100 })]),
  { maxProperties: 200 },
);
