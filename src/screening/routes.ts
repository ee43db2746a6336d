import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { principalOf } from '../auth/principal.js';
import { errorResponses } from '../http/error-responses.js';
import type { QuotePorts } from '../quotes/ports.js';
import { toContractScreening } from './contract.js';
import type { ScreeningEngineFor } from './live-engine.js';
import { Screening, ScreeningAnswersRequest, ScreeningParams, StartScreeningRequest } from './schemas.js';
import { ScreeningLink, ScreeningLinkRequest } from './schemas.js';
import { createScreeningLink } from './link-service.js';
import { answerScreening, completeScreening, readScreening, startScreening, type ScreeningDeps } from './service.js';
import {
  NotOptedInForScreening,
  ScreeningIncomplete,
  ScreeningNotInProgress,
  ScreeningNotStarted,
  TravellerNotFound,
} from './errors.js';

const tags = ['screening'];
const PATH = '/quotes/v2/:brandCode/quote/:quoteId/travellers/:guid/screening';
const NOT_IDEMPOTENCY_KEYED =
  'Safe to repeat without `Idempotency-Key` (none is honoured: a kept answer would store health data in clear): answering a question again replaces its answer, completing again answers the same result.';
const OWN =
  'A quote of another partner, or an unknown id, answers 404 `QUOTE_NOT_FOUND`; an unknown traveller 404 `TRAVELLER_NOT_FOUND`.';

/** Medical screening of a quote's traveller (issue 30). HTTP only. */
/** What starting a traveller's screening and making their link refuse, as documented. */
const TRAVELLER_SCREENING_ERRORS = errorResponses(
  400,
  401,
  403,
  new TravellerNotFound(),
  new ScreeningNotInProgress('COMPLETED'),
  413,
  415,
  new NotOptedInForScreening(),
  503,
);

export const screeningRoutes: FastifyPluginAsyncTypebox<{
  context: AppContext;
  ports: QuotePorts;
  engineFor: ScreeningEngineFor;
}> = (app, { context, ports, engineFor }) => {
  const deps: ScreeningDeps = {
    db: context.db,
    clock: context.clock,
    secret: context.config.auth.keyEncryptionSecret,
    engineFor,
    catalogue: ports.catalogue,
  };
  const linkDeps = {
    ...deps,
    linkHours: context.config.screening.linkHours,
    production: context.config.env === 'production',
    linkBaseUrl: `${context.config.publicBaseUrl}${context.config.basePath}`,
  };
  const at = (p: { brandCode: string; quoteId: string; guid: string }) =>
    [p.brandCode as Parameters<typeof readScreening>[2], p.quoteId, p.guid] as const;

  app.post(
    PATH,
    {
      // Health answers and who gave them: a refusal repeats nothing sent.
      config: { echoesNoValues: true },
      schema: {
        tags,
        operationId: 'startScreening',
        summary: "Start a traveller's medical screening",
        description: `Starts the screening of the traveller \`guid\` (a \`policyHolders[].guid\`), answered by \`authorizedPerson\`; replaces an earlier one (a STALE screening must be started again). 422 \`PLAN_NOT_CHOSEN\`, \`SCREENING_NOT_OFFERED\` (the plan screens no conditions), \`NOT_OPTED_IN_FOR_SCREENING\`; 409 \`QUOTE_PURCHASED\`/\`QUOTE_PURCHASE_INITIATED\`. ${OWN}`,
        params: ScreeningParams,
        body: StartScreeningRequest,
        response: {
          200: Screening,
          ...TRAVELLER_SCREENING_ERRORS,
        },
      },
    },
    async (request) =>
      toContractScreening(
        await startScreening(deps, principalOf(request), ...at(request.params), request.body.authorizedPerson),
      ),
  );

  app.post(
    `${PATH}/answers`,
    {
      // Health answers and who gave them: a refusal repeats nothing sent.
      config: { echoesNoValues: true },
      schema: {
        tags,
        operationId: 'answerScreening',
        summary: 'Answer screening questions',
        description: `Adds answers and returns the next questions. A refused answer is a 400 whose Notification has \`code\` \`ANSWER_<problem>\` (\`ANSWER_UNKNOWN_QUESTION\`, \`ANSWER_NOT_ASKED\`, \`ANSWER_UNKNOWN_CHOICE\`, \`ANSWER_ONE_CHOICE_ONLY\`, \`ANSWER_NO_CHOICE\`) and \`property\` \`answers[<index>].questionId\` or \`answers[<index>].choiceCodes\` (the answer's place in the request; \`answers\` for one stored earlier), never the question id (a follow-up's names its condition) nor the answer. 409 \`SCREENING_NOT_IN_PROGRESS\` once completed or stale. ${NOT_IDEMPOTENCY_KEYED} ${OWN}`,
        params: ScreeningParams,
        body: ScreeningAnswersRequest,
        response: {
          200: Screening,
          ...errorResponses(
            400,
            401,
            403,
            new ScreeningNotStarted(),
            new ScreeningNotInProgress('COMPLETED'),
            413,
            415,
            503,
          ),
        },
      },
    },
    async (request) =>
      toContractScreening(
        await answerScreening(deps, principalOf(request), ...at(request.params), request.body.answers),
      ),
  );

  app.post(
    `${PATH}/complete`,
    {
      // Health answers and who gave them: a refusal repeats nothing sent.
      config: { echoesNoValues: true },
      schema: {
        tags,
        operationId: 'completeScreening',
        summary: 'Complete the screening and assess it',
        description: `Assesses the answers: \`result\` with \`tamisReferenceNumber\`, outcome per traveller and condition, score, medical premium and excess (major units). 409 \`SCREENING_INCOMPLETE\` while questions remain. ${NOT_IDEMPOTENCY_KEYED} ${OWN}`,
        params: ScreeningParams,
        response: {
          200: Screening,
          ...errorResponses(400, 401, 403, new ScreeningNotStarted(), new ScreeningIncomplete(), 503),
        },
      },
    },
    async (request) => toContractScreening(await completeScreening(deps, principalOf(request), ...at(request.params))),
  );

  app.post(
    `${PATH}/link`,
    {
      schema: {
        tags,
        operationId: 'createScreeningLink',
        summary: 'Make the traveller a link to the hosted screening page',
        description: `A link to the hosted questionnaire (\`url\`, public, HTML) for this traveller only: a random 256-bit value, stored only as its hash, expiring at \`expiresAt\` (\`SCREENING_LINK_HOURS\` after now, never past the start of the departure day, UTC). Making a new link revokes the traveller's earlier ones (410). It does not start the screening: the page asks who answers (the traveller or a person they authorised) and starts it. Send the traveller to \`url\`; they come back to \`returnUrl\` with \`quoteId\`, \`travellerGuid\` and \`screeningStatus\` in its query; then read the screening or refresh the quote. 400 \`INVALID_RETURN_URL\`; the same 4xx as a start (422 \`PLAN_NOT_CHOSEN\`, \`SCREENING_NOT_OFFERED\`, \`NOT_OPTED_IN_FOR_SCREENING\`; 409 on a purchased quote). ${OWN}`,
        params: ScreeningParams,
        body: ScreeningLinkRequest,
        response: {
          200: ScreeningLink,
          ...TRAVELLER_SCREENING_ERRORS,
        },
      },
    },
    async (request) => createScreeningLink(linkDeps, principalOf(request), ...at(request.params), request.body),
  );

  app.get(
    PATH,
    {
      // Health answers and who gave them: a refusal repeats nothing sent.
      config: { echoesNoValues: true },
      schema: {
        tags,
        operationId: 'getScreening',
        summary: "Read a traveller's screening",
        description: `IN_PROGRESS with the next questions, COMPLETED with the result, or STALE when the quote's destinations, days of cover, plan or the traveller's date of birth changed since (start again). 404 \`SCREENING_NOT_FOUND\` before a start. ${OWN}`,
        params: ScreeningParams,
        response: { 200: Screening, ...errorResponses(400, 401, 403, new ScreeningNotStarted(), 503) },
      },
    },
    async (request) => toContractScreening(await readScreening(deps, principalOf(request), ...at(request.params))),
  );
  return Promise.resolve();
};
