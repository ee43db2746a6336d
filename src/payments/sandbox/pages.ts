import type { Money } from '../gateway.js';
import type { ChallengeView } from './challenge.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

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

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.5rem 1.5rem;margin-right:1rem}</style>
</head>
<body>
<p><strong>Sandbox card issuer</strong>: a test page, no real card is involved.</p>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
}

const RESULT_TEXT: Record<ChallengeView['state'], string> = {
  pending: 'The payment is waiting for your answer.',
  approved: 'You approved the payment.',
  declined: 'You declined the payment.',
  expired: 'This challenge has expired or was cancelled; nothing was charged.',
};

/** The challenge: what is being paid, and Approve / Decline as a form posted back here. */
export function challengePage(view: ChallengeView, action: string): string {
  if (view.state !== 'pending') return resultPage(view);
  return page(
    'Confirm your payment',
    `<p>Amount: <strong data-amount>${escapeHtml(formatMoney(view.amount))}</strong></p>
<form method="post" action="${escapeHtml(action)}">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="decline">Decline</button>
</form>`,
  );
}

/** After the answer: the cardholder goes back to the merchant, who continues the purchase. */
export function resultPage(view: ChallengeView): string {
  return page(
    view.state === 'approved'
      ? 'Payment approved'
      : view.state === 'declined'
        ? 'Payment declined'
        : 'Challenge closed',
    `<p data-state="${view.state}">${RESULT_TEXT[view.state]}</p>
<p>Please return to the merchant to complete your purchase.</p>`,
  );
}
