import { Type, type Static } from 'typebox';
import { REFERRAL_RULE_KINDS } from './referrals.js';

/**
 * Schema of `<brand>/referrals.yaml`: the rules that refer a quote to an underwriter, each with a
 * reason code, the brand's rules and per plan code a list that replaces them; and the underwriters'
 * authority. catalogue/README.md, "Referrals", explains them.
 */

const Strict = { additionalProperties: false } as const;
const Opt = Type.Optional;
const Amount = Type.Number({ minimum: 0, description: 'Major units of the brand currency, e.g. 1500.00.' });
const ReasonCode = Type.String({
  pattern: '^[A-Z][A-Z0-9_]*$',
  maxLength: 40,
  description: 'The reason code partners and underwriters see when the rule fires.',
});
const Destination = Type.String({ pattern: '^[A-Z]{3}$', description: 'A destination code of shared/destinations.' });

const Rule = Type.Object(
  {
    kind: Type.Enum([...REFERRAL_RULE_KINDS], { type: 'string' }),
    reasonCode: ReasonCode,
    above: Opt(
      Type.Number({
        minimum: 0,
        description: 'TRIP_VALUE_PER_TRAVELLER: major units; TRAVELLER_AGE: whole years. Fires when exceeded.',
      }),
    ),
    destinations: Opt(Type.Array(Destination, { minItems: 1, description: 'DESTINATION_WATCH_LIST: the watched codes.' })),
  },
  Strict,
);
const Rules = Type.Array(Rule);

export const BrandReferralsFile = Type.Object(
  {
    authority: Type.Object(
      {
        underwriterLimit: { ...Amount, description: 'An underwriter decides a referral whose total premium is at most this; above it a senior underwriter.' },
        secondApprovalAbove: { ...Amount, description: 'Above this total premium an approval needs two different senior underwriters.' },
      },
      Strict,
    ),
    rules: Rules,
    plans: Opt(
      Type.Record(Type.String({ minLength: 1 }), Type.Object({ rules: Rules }, Strict), {
        description: "Plan code → its own rules, replacing the brand's.",
      }),
    ),
  },
  Strict,
);
export type BrandReferralsFile = Static<typeof BrandReferralsFile>;
export type ReferralRuleFile = Static<typeof Rule>;
