import { Type, type Static } from 'typebox';

/**
 * The contract's report of problems (spec §2.1): a Notification per problem, and the Validation
 * that carries them. Domain code produces them (quote and purchase rules answer them inside a
 * 200; `problems.ts` builds them); `http/` maps thrown errors and schema violations to the same
 * shapes for its error envelope.
 */

export const Notification = Type.Object(
  {
    code: Type.Optional(Type.String({ description: 'Stable machine code, e.g. `UNKNOWN_BRAND`.' })),
    message: Type.Optional(Type.String({ description: 'What went wrong, for a person.' })),
    tokens: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: 'Values the message refers to (limits, allowed values, the request id of a server error).',
      }),
    ),
    property: Type.Optional(
      Type.String({
        description: 'Where the problem is: a JSON path into the body (`quote.input.returnDate`) or a parameter name.',
      }),
    ),
    value: Type.Optional(Type.String({ description: 'The offending value, when it is safe to echo.' })),
    title: Type.Optional(Type.String()),
    detail: Type.Optional(Type.String()),
  },
  { title: 'Notification', description: 'One problem found with a request (spec §2.1 Notification).' },
);
export type Notification = Static<typeof Notification>;

export const Validation = Type.Object(
  {
    isValid: Type.Optional(Type.Boolean({ default: false })),
    errors: Type.Optional(Type.Array(Notification)),
  },
  { title: 'Validation', description: 'Outcome of validating an object (spec §2.1 Validation).' },
);
export type Validation = Static<typeof Validation>;
