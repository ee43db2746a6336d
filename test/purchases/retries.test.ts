import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { findPartner } from '../../src/auth/accounts.js';
import { IdempotencyService } from '../../src/http/idempotency/service.js';
import { recoverPurchases } from '../../src/purchases/recovery.js';
import type { TestApp } from '../helpers/app.js';
import { useTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { DIALECT } from '../helpers/database.js';
import { books, CARDS, NOW, purchase, purchaseBody, readyQuote, type PurchaseAnswer } from './support.js';
import { buyDirectly, dyingAfter, later, purchaseOf, recoveryDeps } from './recovery-support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

/** A key claimed by a request whose process then died (nothing ever answered or released it). */
async function keyHeldByDeadProcess(t: TestApp, key: string, body: unknown): Promise<number> {
  const partner = await findPartner(t.context, 'PARTNERA');
  const service = new IdempotencyService({ db: t.context.db, clock: () => NOW, retentionHours: 24 });
  const claim = await service.claim({
    scope: `partner:${partner!.id}`,
    key,
    method: 'POST',
    path: '/quotes/v2/brandau/purchase',
    body,
  });
  if (claim.kind !== 'claimed') throw new Error('key not claimed');
  return claim.token.id;
}

describe(`purchase retries after a crash (${DIALECT})`, () => {
  it('a retry gets a truthful Retry-After while the dead process’s purchase waits for recovery, then the purchase’s own 200 answer', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const body = purchaseBody(quote, CARDS.approved);
    const keyId = await keyHeldByDeadProcess(t, 'crash-retry-1', body);
    // The request under that key authorised the card and died (its answer never stored).
    const { quoteId } = await buyDirectly(t, dyingAfter(t, 'authorise'), CARDS.approved, keyId, quote);
    expect((await purchaseOf(t, quoteId)).state).toBe('STARTED');

    const waiting = await purchase(t, body, { key: 'crash-retry-1' });
    expect(waiting.statusCode).toBe(409);
    expect(waiting.json<PurchaseAnswer>().validation.errors[0]?.code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
    // Untouched for a moment: as likely a live request about to answer, so a second's wait.
    expect(waiting.headers['retry-after']).toBe('1');

    await recoverPurchases(recoveryDeps(t, undefined, later(61)), { graceSeconds: 60 });
    const policyNumber = (await purchaseOf(t, quoteId)).policyNumber;
    expect(policyNumber).toBeDefined();
    const answered = await purchase(t, body, { key: 'crash-retry-1' });
    expect(answered.statusCode).toBe(200);
    const answer = answered.json<PurchaseAnswer>();
    expect(answer.quote).toMatchObject({ id: quoteId, isPurchased: true, policyNumber });
    expect(answer.paymentResult).toBe('APPROVED');
    expect(answer.validation.isValid).toBe(true);
    // That answer is now the key's: replayed as it is.
    const replay = await purchase(t, body, { key: 'crash-retry-1' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(answered.body);
    expect(await books(t, quoteId)).toMatchObject({ policies: 1, captures: 1 });
  });

  it('a gateway outage is not kept for the key: a retry with the same key reaches the gateway again', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const body = purchaseBody(quote, CARDS.gatewayError);
    const first = await purchase(t, body, { key: 'outage-1' });
    expect(first.statusCode).toBe(200);
    expect(first.json<PurchaseAnswer>().paymentResult).toBe('GATEWAY_ERROR');
    const second = await purchase(t, body, { key: 'outage-1' });
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    const attempts = await t.context.db
      .selectFrom('purchase')
      .select('state')
      .where('quote_id', '=', quote.id)
      .execute();
    expect(attempts.map((a) => a.state)).toEqual(['FAILED', 'FAILED']);
    // A declined card is a final answer: kept and replayed.
    const declinedBody = purchaseBody(quote, CARDS.declined);
    const declined = await purchase(t, declinedBody, { key: 'decline-1' });
    expect((await purchase(t, declinedBody, { key: 'decline-1' })).body).toBe(declined.body);
  });

  it('two Idempotency-Key headers are refused with 400 IDEMPOTENCY_KEY_INVALID, not joined into one key', async () => {
    const t = getApp();
    const quote = await readyQuote(t);
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const authorization = (await bearerFor(t, 'brandau', 'A')).authorization ?? '';
    const payload = JSON.stringify(purchaseBody(quote, CARDS.approved));
    // A raw request: the header sent twice, as a client would put it on the wire.
    const url = new URL(address);
    const head = [
      'POST /quotes/v2/brandau/purchase HTTP/1.1',
      `Host: ${url.host}`,
      `Authorization: ${authorization}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(payload)}`,
      'Idempotency-Key: first',
      'Idempotency-Key: second',
      'Connection: close',
    ].join('\r\n');
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.end(`${head}\r\n\r\n${payload}`));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    const [statusLine = '', rest = ''] = raw.split('\r\n', 1).concat(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    const answer = { status: Number(statusLine.split(' ')[1]), body: rest };
    expect(answer).toMatchObject({ status: 400 });
    expect(JSON.parse(answer.body)).toMatchObject({
      validation: { errors: [{ code: 'IDEMPOTENCY_KEY_INVALID', property: 'Idempotency-Key' }] },
    });
    expect(
      (await t.context.db.selectFrom('purchase').select('id').where('quote_id', '=', quote.id).execute()).length,
    ).toBe(0);
  });
});
