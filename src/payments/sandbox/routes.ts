import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { answerChallenge, CHALLENGE_DECISIONS, describeChallenge } from './challenge.js';
import { challengePage, resultPage } from './pages.js';

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

/** The issuer's pages are HTML for a browser: never cached, never scripted, posting only here. */
function sendHtml(reply: FastifyReply, html: string): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
    .header('x-content-type-options', 'nosniff')
    .send(html);
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

  api.get(
    '/sandbox/3ds/:challengeId',
    { schema: { ...common, operationId: 'sandboxThreeDsChallenge', summary: 'Sandbox 3-D Secure challenge page' } },
    async (request, reply) => {
      const view = await describeChallenge(context.db, request.params.challengeId, context.clock());
      return sendHtml(reply, challengePage(view, request.params.challengeId));
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
      const view = await answerChallenge(
        context.db,
        request.params.challengeId,
        request.body.decision,
        context.clock(),
      );
      return sendHtml(reply, resultPage(view));
    },
  );
}
