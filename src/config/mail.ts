import { Type, type Static } from 'typebox';

/** The environment variables of e-mail (parsed with the rest in src/config/config.ts). */
export const MailEnvSchema = Type.Object({
  SMTP_URL: Type.Optional(
    Type.String({
      pattern: '^smtps?://',
      description:
        'Where e-mails are sent (smtp:// or smtps://, credentials in the URL). Unset in staging: kept on /sandbox/mail. Required in production.',
    }),
  ),
});

/** Where e-mails go: a real SMTP server, or the staging sandbox mailbox (never in production). */
export type MailConfig = { readonly transport: 'smtp'; readonly smtpUrl: string } | { readonly transport: 'sandbox' };

export function mailConfigProblems(env: Static<typeof MailEnvSchema>, production: boolean): string[] {
  return production && !env.SMTP_URL ? ['SMTP_URL: required when APP_ENV=production'] : [];
}

export function mailConfigFrom(env: Static<typeof MailEnvSchema>): MailConfig {
  return env.SMTP_URL ? { transport: 'smtp', smtpUrl: env.SMTP_URL } : { transport: 'sandbox' };
}
