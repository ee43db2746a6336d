import { html, type Html } from '../../kernel/html/markup.js';
import type { PageLook } from '../../kernel/html/look.js';
import { renderPage, type RenderedPage } from '../../kernel/html/page.js';
import type { Money } from '../gateway.js';
import { returnUrlOf } from '../three-ds.js';
import type { ChallengeView } from './challenge.js';

/** The sandbox issuer's own look: a card issuer shows its mark, and names the merchant in the page. */
const ISSUER_LOOK: PageLook = {
  name: 'Sandbox card issuer',
  colour: '#37474f',
  logoSvg:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="8" fill="#ffffff"/><rect x="7" y="12" width="26" height="17" rx="3" fill="#37474f"/><rect x="7" y="16" width="26" height="3" fill="#ffffff"/></svg>',
};

/** `{amountMinor: 12345, currency: 'AUD'}` → `A$123.45`, with the currency's own minor digits. */
export function formatMoney(money: Money): string {
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency: money.currency });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(money.amountMinor / 10 ** digits);
  } catch {
    return `${money.currency} ${String(money.amountMinor)} (minor units)`;
  }
}

const SANDBOX_NOTICE = html`<p class="meta">A test page of the sandbox: no real card is involved.</p>`;

// The partner may show the challenge in a frame (REDIRECT allows a new window, a redirect or an iframe).
const page = (title: string, main: Html, postsForm = false): RenderedPage =>
  renderPage({
    lang: 'en',
    title,
    look: ISSUER_LOOK,
    main: html`<h1>${title}</h1>
      ${main}`,
    postsForm,
    framable: true,
  });

const merchantOf = (view: ChallengeView) => view.merchantName ?? 'the merchant';

function facts(view: ChallengeView): Html {
  return html`<dl class="facts card">
    <dt>Merchant</dt>
    <dd data-merchant>${merchantOf(view)}</dd>
    <dt>Amount</dt>
    <dd class="amount" data-amount>${formatMoney(view.amount)}</dd>
  </dl>`;
}

/** The challenge: whom and how much the cardholder pays, and Approve / Decline as a form posted back here. */
export function challengePage(view: ChallengeView, action: string): RenderedPage {
  if (view.state !== 'pending') return resultPage(view);
  return page(
    'Confirm your payment',
    html`${SANDBOX_NOTICE}
      <p>Your card issuer asks you to confirm this payment.</p>
      ${facts(view)}
      <form method="post" action="${action}"><div class="actions">
        <button type="submit" class="button" name="decision" value="approve">Approve</button>
        <button type="submit" class="button secondary" name="decision" value="decline">Decline</button>
      </form>`,
    true,
  );
}

const RESULT: Record<ChallengeView['state'], { title: string; text: string }> = {
  pending: { title: 'Waiting for your answer', text: 'The payment is waiting for your answer.' },
  approved: { title: 'Payment approved', text: 'You approved the payment.' },
  declined: { title: 'Payment declined', text: 'You declined the payment.' },
  expired: { title: 'Challenge closed', text: 'This challenge has expired or was cancelled; nothing was charged.' },
};

/**
 * The way back: the partner's page with the continuation's two values (`threeDSRequest`, the
 * challenge id, and `threeDSStatus`) in its query, opened in the whole window (`_top`) when the
 * challenge was framed. Without a return URL the cardholder is told to go back by hand.
 */
function wayBack(view: ChallengeView): Html {
  const target = returnUrlOf(view.returnUrl);
  if (!target || view.state === 'pending') {
    return html`<p>Please return to ${merchantOf(view)} to complete your purchase.</p>`;
  }
  const url = new URL(target);
  url.searchParams.set('threeDSRequest', view.challengeId);
  url.searchParams.set('threeDSStatus', view.state === 'approved' ? 'CHALLENGE_COMPLETED' : 'CHALLENGE_FAILED');
  return html`<p class="actions">
    <a class="button" href="${url.href}" target="_top" data-return>Return to ${merchantOf(view)}</a>
  </p>`;
}

/** After the answer (or for a closed challenge): what happened, and the way back to the merchant. */
export function resultPage(view: ChallengeView): RenderedPage {
  const { title, text } = RESULT[view.state];
  return page(
    title,
    html`${SANDBOX_NOTICE}
      <p data-state="${view.state}">${text}</p>
      ${facts(view)}${wayBack(view)}`,
  );
}

/** A page instead of the API's JSON error, for the cardholder's browser. */
export function issuerErrorPage(title: string, text: string): RenderedPage {
  return page(
    title,
    html`${SANDBOX_NOTICE}
      <p>${text}</p>`,
  );
}
