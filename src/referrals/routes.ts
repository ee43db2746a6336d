import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { errorResponses } from '../http/error-responses.js';
import { QuoteNotFound } from '../quotes/errors.js';
import { findQuote } from '../quotes/repository.js';
import { QuoteReferral } from '../quotes/schemas.js';
import { minorDigits } from '../kernel/money/units.js';
import { toContractReferral } from '../quotes/contract.js';
import { WithdrawParams } from './schemas.js';
import { withdrawReferral } from './service.js';
import { NoReferralToWithdraw } from './errors.js';

/** The partner's referral route: withdraw its own quote's referral. HTTP only. */
export const referralRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = (app, { context }) => {
  app.post(
    '/quotes/v2/:brandCode/quote/:quoteId/referral/withdraw',
    {
      schema: {
        tags: ['quotes'],
        operationId: 'withdrawQuoteReferral',
        summary: "Withdraw a quote's referral",
        description:
          'Extension (docs/api-contract.md, "Referrals"): withdraws the quote\'s referral while it waits for an underwriter (REFERRED or INFORMATION_REQUESTED); the quote then cannot be bought as it is. Answers the referral, now WITHDRAWN. 409 `REFERRAL_NOT_OPEN` when none waits; a quote of another partner answers 404 `QUOTE_NOT_FOUND`.',
        params: WithdrawParams,
        response: {
          200: QuoteReferral,
          ...errorResponses(
            400,
            401,
            403,
            new QuoteNotFound('01a22460-6a97-71c6-aaa3-541d03ff7a02'),
            new NoReferralToWithdraw('APPROVED'),
            503,
          ),
        },
      },
    },
    async (request) => {
      const { brandCode, quoteId } = request.params;
      const quote = await findQuote(context.db, quoteId, brandCode, principalOf(request).partnerId);
      if (!quote) throw new QuoteNotFound(quoteId);
      const referral = await withdrawReferral({ db: context.db, clock: context.clock }, quote);
      return toContractReferral(referral, minorDigits(quote.pricing.currencyCode ?? 'AUD'));
    },
  );
  return Promise.resolve();
};
