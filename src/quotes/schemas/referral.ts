import { Type, type Static } from 'typebox';
import { REFERRAL_STATUSES } from '../../referrals/model.js';
import { Maybe, Money, Percentage, Text } from './common.js';

/** Our extension of Quote (docs/api-contract.md, "Referrals"): the quote's referral to an underwriter. */
export const QuoteReferral = Type.Object(
  {
    status: Type.Enum([...REFERRAL_STATUSES], {
      type: 'string',
      description:
        'REFERRED and INFORMATION_REQUESTED: waiting for an underwriter, the quote cannot be bought; APPROVED: it can (with the loading and extra excess below); DECLINED and WITHDRAWN: it cannot.',
    }),
    reasonCodes: Type.Array(Type.String({ maxLength: 40 }), {
      maxItems: 20,
      description: 'Why the quote was referred: the reason codes of the rules that fired (catalogue data per brand).',
    }),
    referredAt: Type.String({ description: 'Since when the quote is referred (UTC, ISO 8601).' }),
    decidedAt: Maybe(Type.String({ description: 'When the underwriter decided (UTC, ISO 8601).' })),
    loadingPercentage: Maybe(
      Percentage('APPROVED: the percentage added to the plan premium, priced as the UNDERWRITING_LOADING line.'),
    ),
    extraExcess: Maybe(Money("APPROVED: added to the policy's excess, major units of the quote currency.")),
    declineReason: Maybe(Text('DECLINED: the underwriter’s reason.', 1000)),
    informationRequested: Maybe(Text('INFORMATION_REQUESTED: what the underwriter asks for.', 1000)),
  },
  {
    title: 'QuoteReferral',
    description:
      "Extension: the quote's referral to an underwriter, present while a referral applies to the quote as it is.",
  },
);
export type QuoteReferral = Static<typeof QuoteReferral>;
