import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Ledger } from './ledger.js';

/**
 * The stand-in's hosted 3-D Secure page (Stripe's test page: "Complete" or "Fail" authentication).
 * GET shows the two buttons; the POST answers for the cardholder, then sends the browser to the
 * intent's `return_url` with `payment_intent`, `payment_intent_client_secret` and `redirect_status`
 * added, as Stripe does.
 */

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  response.end(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>3D Secure test page</title></head><body>${body}</body></html>`,
  );
}

async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function challengePage(
  ledger: Ledger,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  const params = request.method === 'POST' ? await formOf(request) : url.searchParams;
  const id = params.get('payment_intent') ?? '';
  const secret = params.get('payment_intent_client_secret') ?? '';
  const intent = ledger.intents.get(id);
  if (!intent || intent.clientSecret !== secret) return page(response, 404, '<p>Unknown payment.</p>');
  if (request.method !== 'POST') {
    if (intent.status !== 'requires_action')
      return page(response, 409, `<p>This payment is ${escape(intent.status)}; nothing to authenticate.</p>`);
    const hidden = `<input type="hidden" name="payment_intent" value="${escape(id)}"><input type="hidden" name="payment_intent_client_secret" value="${escape(secret)}">`;
    return page(
      response,
      200,
      `<h1>3D Secure 2 Test Page</h1><p>${intent.amount} ${escape(intent.currency.toUpperCase())}</p>` +
        `<form method="post" action="/3d_secure_2/hosted">${hidden}<button name="answer" value="complete">Complete authentication</button>` +
        `<button name="answer" value="fail">Fail authentication</button></form>`,
    );
  }
  const answer = params.get('answer');
  if (answer !== 'complete' && answer !== 'fail') return page(response, 400, '<p>Choose an answer.</p>');
  if (intent.status !== 'requires_action')
    return page(response, 409, `<p>This payment is ${escape(intent.status)}; nothing to authenticate.</p>`);
  ledger.answerChallenge(id, answer === 'complete');
  if (!intent.returnUrl) return page(response, 200, '<p>Done.</p>');
  const back = new URL(intent.returnUrl);
  back.searchParams.set('payment_intent', id);
  back.searchParams.set('payment_intent_client_secret', secret);
  back.searchParams.set('redirect_status', answer === 'complete' ? 'succeeded' : 'failed');
  response.writeHead(302, { location: back.href, 'cache-control': 'no-store' });
  response.end();
}
