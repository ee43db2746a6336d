import { Type, type Static } from 'typebox';

/** The environment variables of policy documents (parsed with the rest in src/config/config.ts). */
export const DocumentEnvSchema = Type.Object({
  DOCUMENT_LINK_DAYS_AFTER_COVER: Type.Integer({
    default: 90,
    minimum: 0,
    maximum: 3650,
    description:
      "Days after the cover's end date (in the policy's zone) during which the customer's document link (`/documents/v1/{policyDocumentAccessGuid}`) still opens.",
  }),
  DOCUMENT_RESENDS_PER_POLICY_PER_DAY: Type.Integer({
    default: 5,
    minimum: 0,
    maximum: 1000,
    description: "Resends of one policy's documents (`POST …/documents/send`) a UTC day allows; past it, 429.",
  }),
  DOCUMENT_RESENDS_PER_PARTNER_PER_HOUR: Type.Integer({
    default: 60,
    minimum: 0,
    maximum: 100000,
    description: 'Resends of documents one partner may ask for in a UTC hour, all its policies together; past it, 429.',
  }),
});

export type DocumentConfig = ReturnType<typeof documentConfigFrom>;

export function documentConfigFrom(env: Static<typeof DocumentEnvSchema>) {
  return {
    /** The customer's link opens until the end of the cover's last day plus this many days. */
    linkDaysAfterCover: env.DOCUMENT_LINK_DAYS_AFTER_COVER,
    /** Resends a policy may have per UTC day, and a partner per UTC hour. */
    resendLimits: {
      perPolicyPerDay: env.DOCUMENT_RESENDS_PER_POLICY_PER_DAY,
      perPartnerPerHour: env.DOCUMENT_RESENDS_PER_PARTNER_PER_HOUR,
    },
  } as const;
}
