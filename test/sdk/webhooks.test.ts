import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { sign, verify, WebhookVerificationError } from '../../sdk/src/index.js';

const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const BODY = JSON.stringify({ id: 'evt_1', type: 'policy.issued', data: { policyNumber: 'P1' } });

describe('SDK webhooks: Standard Webhooks with WebCrypto', () => {
  it('verifies what it signs, and what the reference library signs', async () => {
    const headers = await sign(BODY, SECRET);
    await expect(verify(BODY, headers, SECRET)).resolves.toMatchObject({ type: 'policy.issued' });
    const at = new Date();
    const reference = new Webhook(SECRET).sign('msg_1', at, BODY);
    const theirs = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)) };
    // A rotated secret's signature beside the current one: any match is enough.
    const signatures = `v1,bm90IGEgc2lnbmF0dXJl ${reference}`;
    await expect(verify(BODY, { ...theirs, 'webhook-signature': signatures }, SECRET)).resolves.toBeTruthy();
    await expect(
      verify(BODY, new Headers({ ...theirs, 'webhook-signature': reference }), SECRET),
    ).resolves.toBeTruthy();
  });

  it('rejects a tampered body, another secret, an old or future timestamp, missing headers', async () => {
    const headers = await sign(BODY, SECRET);
    await expect(verify(BODY.replace('P1', 'P2'), headers, SECRET)).rejects.toBeInstanceOf(WebhookVerificationError);
    const other = `whsec_${Buffer.from('another secret of 32 bytes long!').toString('base64')}`;
    await expect(verify(BODY, headers, other)).rejects.toBeInstanceOf(WebhookVerificationError);
    const old = await sign(BODY, SECRET, { timestamp: new Date(Date.now() - 6 * 60_000) });
    await expect(verify(BODY, old, SECRET)).rejects.toThrow(/tolerance/);
    const future = await sign(BODY, SECRET, { timestamp: new Date(Date.now() + 6 * 60_000) });
    await expect(verify(BODY, future, SECRET)).rejects.toThrow(/tolerance/);
    await expect(verify(BODY, { 'webhook-id': 'x' }, SECRET)).rejects.toThrow(/Missing/);
  });
});
