import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { errorResponses } from '../http/error-responses.js';
import { principalOf } from '../auth/principal.js';
import { PolicyDetailList, PolicyParams, PolicySummary } from './schemas.js';
import { getPolicyDetails, getPolicySummary } from './service.js';
import { PolicyNotFound } from './errors.js';

const NOT_FOUND =
  '404 `POLICY_NOT_FOUND` when the number is unknown, belongs to another partner, or was sold under another brand than `{brandCode}` (the three are not told apart).';

/** Policy summary and details (spec §4.10, §4.11); registered inside the protected scope. */
export const policiesRoutes: FastifyPluginAsyncTypebox<{ context: AppContext }> = (app, { context }) => {
  app.get(
    '/policies/v1/:brandCode/policies/:policyNumber',
    {
      schema: {
        tags: ['policies'],
        operationId: 'getPolicySummary',
        summary: 'Policy summary',
        description: `The policy as it stands after its latest transaction: plan, travellers, dates (UTC and local), money. Only the partner that sold the policy can read it. ${NOT_FOUND}`,
        params: PolicyParams,
        response: { 200: PolicySummary, ...errorResponses(400, 401, 403, new PolicyNotFound('BACAU260004217'), 500) },
      },
    },
    async (request) => {
      const { partnerId } = principalOf(request);
      return getPolicySummary(context.db, { ...request.params, partnerId });
    },
  );

  app.get(
    '/policies/v1/:brandCode/policies/:policyNumber/details',
    {
      schema: {
        tags: ['policies'],
        operationId: 'getPolicyDetails',
        summary: 'Policy transaction details',
        description: `Every transaction of the policy (purchase, amendments, cancellation), oldest first, as a JSON array. Same visibility as the summary. ${NOT_FOUND}`,
        params: PolicyParams,
        response: {
          200: PolicyDetailList,
          ...errorResponses(400, 401, 403, new PolicyNotFound('BACAU260004217'), 500),
        },
      },
    },
    async (request) => {
      const { partnerId } = principalOf(request);
      return getPolicyDetails(context.db, { ...request.params, partnerId });
    },
  );
  return Promise.resolve();
};
