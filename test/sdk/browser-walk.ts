// Bundled for the browser (esbuild, platform browser): a policy's life with no Node API, same origin as the page.
import { PartnerClient } from '../../sdk/src/index.js';
import { daysFromToday, readyPurchase, required } from './walk-steps.js';

async function approve(challenge: string, origin: string): Promise<void> {
  const url = new URL(new URL(challenge).pathname, origin).toString();
  const page = await fetch(url);
  const action = /<form method="post" action="([^"]+)">/.exec(await page.text())?.[1];
  const form = new URLSearchParams({ decision: 'approve' });
  await fetch(new URL(required(action, 'challenge form'), url), { method: 'POST', body: form });
}

export async function walk(origin: string): Promise<Record<string, unknown>> {
  const client = new PartnerClient({
    baseUrl: origin,
    brand: 'brandau',
    credentials: { username: 'demoa.brandau@demo.example', password: 'DEMOA-brandau-demo-pass' },
  });
  const { body, input } = await readyPurchase(client, 'tok_sandbox_3ds_challenge');
  const first = await client.purchases.create(body);
  const challenge = required(first.threeDSResponseInfo?.threeDSResponse, 'challenge');
  await approve(challenge, origin);
  const bought = await client.purchases.create({
    ...body,
    threeDSRequestInfo: { threeDSStatus: 'CHALLENGE_COMPLETED', threeDSRequest: challenge },
  });
  const policyNumber = required(bought.quote?.policyNumber, 'policy number');
  // A longer trip: the amendment costs more, charged to a card.
  const amendment = await client.changes.previewAmendment(policyNumber, {
    input: { ...input, returnDate: daysFromToday(40) },
  });
  const amended = await client.changes.confirmAmendment(policyNumber, required(amendment.id, 'amendment id'), {
    cardToken: { token: 'tok_sandbox_approved' },
  });
  const cancellation = await client.changes.previewCancellation(policyNumber, { reasonCode: 'TRIP_CANCELLED' });
  const cancelled = await client.changes.confirmCancellation(policyNumber, required(cancellation.id, 'id'));
  const { documents } = await client.documents.list(policyNumber);
  const pdf = await client.documents.download(policyNumber, required(documents[0], 'document').documentId);
  const types: string[] = [];
  for await (const event of client.events.iterate()) types.push(event.type);
  const secret = 'whsec_' + btoa('0123456789abcdef0123456789abcdef');
  const headers = await client.webhooks.sign('{"a":1}', secret);
  const verified = await client.webhooks.verify('{"a":1}', headers, secret);
  return {
    first: first.paymentResult,
    paymentResult: bought.paymentResult,
    amendment: [amendment.status, amended.amendment?.status, amended.paymentResult],
    status: cancelled.policy?.policyStatus,
    pdf: new TextDecoder().decode(pdf.slice(0, 5)),
    types,
    verified,
  };
}
