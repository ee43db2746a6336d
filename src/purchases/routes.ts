import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { BrandParams } from '../http/schemas.js';
import { errorResponses } from '../http/error-responses.js';
import { doNotKeepAnswer, heldIdempotencyKey, idempotentRoute } from '../http/idempotency/hooks.js';
import { redactCardNumbers } from '../kernel/card-numbers/card-numbers.js';
import { judgeHeldKey } from '../payments/flow/held-keys.js';
import { purchaseDepsFor } from './deps.js';
import { purchaseMoney } from './flow.js';
import { isRetryableEnd } from './model.js';
import { toPurchaseResponse } from './present.js';
import { PurchaseRequest, PurchaseResponse } from './schemas.js';
import { purchaseQuote } from './service.js';
import { PurchaseInProgress, PurchaseQuoteNotFound } from './errors.js';
import { QuoteReferred } from '../referrals/errors.js';

/** `POST /quotes/v2/{brandCode}/purchase` (spec §4.2); registered inside the protected scope. */
export const purchaseRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = (app, { context }) => {
  app.post(
    '/quotes/v2/:brandCode/purchase',
    {
      ...idempotentRoute({
        scopeOf: (request) => `partner:${principalOf(request).partnerId}`,
        inFlight: (request, held) =>
          judgeHeldKey(
            purchaseMoney,
            purchaseDepsFor(context, app.paymentGateways, request.log),
            context.config.purchaseRecoveryGraceSeconds,
            held,
          ),
      }),
      schema: {
        tags: ['purchase'],
        operationId: 'purchaseQuote',
        summary: 'Buy a stored quote',
        description:
          "Buys the stored quote `quote.id` with a tokenised card, or with `paymentMethod: ON_ACCOUNT` on the partner's account (partners with `isOnAccountPurchaseEnabled`, read per request, else 403 `ON_ACCOUNT_NOT_ENABLED`; no card token, else 400 `CARD_TOKEN_NOT_ACCEPTED`): checks it is ready (valid, priced, plan chosen, stage DETAILS or later, every purchase term agreed), authorises the server's price of the chosen plan, issues the policy and captures. " +
          'A quote that is not ready, a declined card or a gateway failure answer 200 with `validation.isValid: false` and Notifications (nothing charged). A 3-D Secure challenge answers `paymentResult: THREEDS_CHALLENGE_REQUIRED` with `threeDSResponseInfo`; call again with `threeDSRequestInfo` once the cardholder answered. ' +
          "Honours `Idempotency-Key` (per partner). 404 `QUOTE_NOT_FOUND` for another partner's or an unknown quote; 409 `QUOTE_PURCHASED` once bought, `PURCHASE_IN_PROGRESS` while another purchase of it runs. A card number anywhere in the body is refused with 400 `CARD_NUMBER_REFUSED`.",
        params: BrandParams,
        body: PurchaseRequest,
        response: {
          200: PurchaseResponse,
          ...errorResponses(
            400,
            401,
            403,
            new PurchaseQuoteNotFound('01a22460-6a97-71c6-aaa3-541d03ff7a02'),
            new QuoteReferred('REFERRED'),
            new PurchaseInProgress(),
            413,
            415,
            422,
            500,
            503,
          ),
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const body = request.body;
      const clientInfo = body.quote.clientInfo;
      // The header is not scanned like the body: its card numbers are redacted before the purchase and policy keep it.
      const header = request.headers['user-agent'];
      const userAgent = clientInfo?.userAgent ?? (header === undefined ? undefined : redactCardNumbers(header));
      const key = heldIdempotencyKey(request);
      const result = await purchaseQuote(purchaseDepsFor(context, app.paymentGateways, request.log), {
        ...(key !== undefined ? { idempotencyKey: key } : {}),
        buyer: { userId: principal.userId, partnerId: principal.partnerId, partnerCode: principal.partnerCode },
        brandCode: request.params.brandCode,
        body,
        client: { ipAddress: clientInfo?.ipAddress ?? request.ip, ...(userAgent !== undefined ? { userAgent } : {}) },
      });
      // A gateway outage is not a final answer: a retry with the same key reaches the gateway again.
      if (result.purchase && isRetryableEnd(result.purchase)) doNotKeepAnswer(request);
      return toPurchaseResponse(result, body);
    },
  );
  return Promise.resolve();
};
