import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import type { RenderedPage } from '../../kernel/html/page.js';
import { ChallengeNotFound } from '../errors.js';
import { answerChallenge, CHALLENGE_DECISIONS, describeChallenge, type ChallengeView } from './challenge.js';
import { challengePage, issuerErrorPage, resultPage } from './pages.js';

export interface SandboxRoutesOptions {
  readonly context: AppContext;
}

const ChallengeParams = Type.Object({
  challengeId: Type.String({
    pattern: '^sbx_3ds_[A-Za-z0-9_-]{16}$',
    description: 'The challenge id from `threeDSResponse`.',
  }),
});
const ChallengeAnswer = Type.Object({
  decision: Type.Union(CHALLENGE_DECISIONS.map((decision) => Type.Literal(decision))),
});

const sendPage = (reply: FastifyReply, status: number, page: RenderedPage): FastifyReply =>
  reply.code(status).headers(page.headers).type('text/html; charset=utf-8').send(page.body);

/** A closed challenge's page answers 410 (it can no longer be answered); any other state's 200. */
const statusOf = (view: ChallengeView) => (view.state === 'expired' ? 410 : 200);

const wantsHtml = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');

/**
 * The cardholder's browser gets a page for every error (unknown challenge, a malformed address or
 * answer, a failure); any other client gets the API's JSON error from the app's handler.
 */
function pageOfError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (!wantsHtml(request)) throw error;
  if (error instanceof ChallengeNotFound)
    return sendPage(
      reply,
      404,
      issuerErrorPage(
        'Challenge not found',
        'This payment confirmation link is not valid. Return to the merchant and try again.',
      ),
    );
  if (error.validation)
    return sendPage(
      reply,
      400,
      issuerErrorPage(
        'Not a valid request',
        'This page cannot take that request. Return to the merchant and try again.',
      ),
    );
  const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
  if (status >= 500) request.log.error({ err: error }, 'sandbox 3-D Secure page failed');
  return sendPage(
    reply,
    status,
    issuerErrorPage(
      'Something went wrong',
      'The payment could not be confirmed just now. Please try again in a moment.',
    ),
  );
}

/**
 * The sandbox card issuer's 3-D Secure challenge pages, reached by the cardholder's browser
 * through `threeDSResponse`. Public (no bearer token) and only registered with the sandbox
 * gateway; hidden from the partner OpenAPI document (they are the issuer's, not the API's).
 */
export async function sandboxChallengeRoutes(app: FastifyInstance, { context }: SandboxRoutesOptions): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  if (!api.hasContentTypeParser('application/x-www-form-urlencoded')) await api.register(formbody);
  const common = { hide: true, tags: ['purchase'], params: ChallengeParams };
  api.setErrorHandler(pageOfError);

  api.get(
    '/sandbox/3ds/:challengeId',
    { schema: { ...common, operationId: 'sandboxThreeDsChallenge', summary: 'Sandbox 3-D Secure challenge page' } },
    async (request, reply) => {
      const view = await describeChallenge(context.db, request.params.challengeId, context.clock());
      return sendPage(reply, statusOf(view), challengePage(view, request.params.challengeId));
    },
  );

  api.post(
    '/sandbox/3ds/:challengeId',
    {
      schema: {
        ...common,
        body: ChallengeAnswer,
        operationId: 'sandboxThreeDsAnswer',
        summary: 'Answer a sandbox 3-D Secure challenge',
      },
    },
    async (request, reply) => {
      const { view, recorded } = await answerChallenge(
        context.db,
        request.params.challengeId,
        request.body.decision,
        context.clock(),
      );
      // Not recorded: closed (410), or answered before (409, the first answer shown).
      return sendPage(reply, recorded ? 200 : view.state === 'expired' ? 410 : 409, resultPage(view));
    },
  );
}
