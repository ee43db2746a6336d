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
});

export type DocumentConfig = ReturnType<typeof documentConfigFrom>;

export function documentConfigFrom(env: Static<typeof DocumentEnvSchema>) {
  return {
    /** The customer's link opens until the end of the cover's last day plus this many days. */
    linkDaysAfterCover: env.DOCUMENT_LINK_DAYS_AFTER_COVER,
  } as const;
}
