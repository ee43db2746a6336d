import { describe, expect, it } from 'vitest';
import { SANDBOX_CARD_TOKENS as CARDS } from '../../src/payments/sandbox/cards.js';
import { DIALECT } from '../helpers/database.js';
import { until } from '../helpers/polling.js';
import { useWebhookReceiver } from '../helpers/webhook-receiver.js';
import { approveChallenge, daysFromToday, demoClient, readyPurchase, required, useSdkServer } from './support.js';

/** Issue 33: one policy's whole life through the SDK against a real server, with no cast. */
describe(`SDK: a policy's whole life (${DIALECT})`, () => {
  const getServer = useSdkServer();
  const receiver = useWebhookReceiver();

  it('token, quote, purchase through 3-D Secure, amendment, cancellation, documents, webhook, event feed', async () => {
    const client = demoClient(getServer().url);
    const tokens = await client.auth.signIn();
    expect(tokens.token_type).toBe('Bearer');

    const hook = await client.webhooks.create({ url: receiver().url });
    const secret = required(hook.secret, 'webhook secret');
    expect(secret).toMatch(/^whsec_/);

    const { quote, input, body } = await readyPurchase(client, CARDS.threeDsChallenge);
    expect(quote.stage).toBe('DETAILS');
    const again = await client.quotes.get(required(quote.id, 'quote id'));
    expect(again.id).toBe(quote.id);

    // 3-D Secure is data: the caller sends the cardholder to the page, then continues with the same body.
    const first = await client.purchases.create(body);
    expect(first.paymentResult).toBe('THREEDS_CHALLENGE_REQUIRED');
    const challenge = required(first.threeDSResponseInfo?.threeDSResponse, 'challenge url');
    await approveChallenge(challenge, getServer().url);
    const bought = await client.purchases.create({
      ...body,
      threeDSRequestInfo: { threeDSStatus: 'CHALLENGE_COMPLETED', threeDSRequest: challenge },
    });
    expect(bought.paymentResult).toBe('APPROVED');
    const policyNumber = required(bought.quote?.policyNumber, 'policy number');

    const summary = await client.policies.get(policyNumber);
    expect(summary.policyNumber).toBe(policyNumber);
    const details = await client.policies.details(policyNumber);
    expect(details.length).toBeGreaterThan(0);

    // 7 days of cover become 9, within the rate table's band: nothing to pay, so the amendment is
    // applied at once and no payment is made; the answer has no paymentResult (docs/api-contract.md,
    // "Confirming a change": "Nothing to pay").
    const amendment = await client.changes.previewAmendment(policyNumber, {
      input: { ...input, returnDate: daysFromToday(28) },
    });
    expect([amendment.status, amendment.transactionAmount]).toEqual(['PREVIEW', 0]);
    const amended = await client.changes.confirmAmendment(policyNumber, required(amendment.id, 'amendment id'), {});
    expect(amended.validation, JSON.stringify(amended)).toMatchObject({ isValid: true });
    expect(amended.amendment?.status).toBe('APPLIED');
    expect(amended.paymentResult).toBeUndefined();
    // 21 days cost more: the card is charged.
    const longer = await client.changes.previewAmendment(policyNumber, {
      input: { ...input, returnDate: daysFromToday(40) },
    });
    expect(longer.transactionAmount).toBeGreaterThan(0);
    const charged = await client.changes.confirmAmendment(policyNumber, required(longer.id, 'amendment id'), {
      cardToken: { token: CARDS.approved },
    });
    expect(charged).toMatchObject({ paymentResult: 'APPROVED', paymentMethod: 'CARD', validation: { isValid: true } });

    const cancellation = await client.changes.previewCancellation(policyNumber, { reasonCode: 'TRIP_CANCELLED' });
    const cancelled = await client.changes.confirmCancellation(
      policyNumber,
      required(cancellation.id, 'cancellation id'),
    );
    expect(cancelled.policy?.policyStatus).toBe('Cancelled');

    const { documents } = await client.documents.list(policyNumber);
    const certificate = required(documents[0], 'a document');
    const pdf = await client.documents.download(policyNumber, certificate.documentId);
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe('%PDF-');

    // A real delivery, verified from its raw body with the endpoint's secret.
    await until(() => receiver().received.length > 0, 'a webhook delivery');
    const delivery = required(receiver().received[0], 'a delivery');
    const event = await client.webhooks.verify(delivery.body, headersOf(delivery.headers), secret);
    expect(event).toHaveProperty('type');

    // The feed from its start, then resumed from the cursor of the first event.
    const types: string[] = [];
    for await (const feedEvent of client.events.iterate()) types.push(feedEvent.type);
    expect(types).toContain('policy.issued');
    const firstId = await firstEventId(client);
    const resumed: string[] = [];
    for await (const feedEvent of client.events.iterate({ after: firstId, limit: 2 })) resumed.push(feedEvent.type);
    // Events keep being published meanwhile: the resumed feed starts where the first read went on.
    expect(resumed.slice(0, types.length - 1)).toEqual(types.slice(1));
  });
});

async function firstEventId(client: ReturnType<typeof demoClient>): Promise<string> {
  for await (const event of client.events.iterate({ limit: 1 })) return event.id;
  throw new Error('empty feed');
}

function headersOf(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = String(value);
  return flat;
}
