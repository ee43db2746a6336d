import { describe, expect, it } from 'vitest';
import { continuationProblems } from './three-ds.js';

describe('continuationProblems: which threeDSRequest names the waiting challenge', () => {
  const completed = (threeDSRequest: string) => ({ threeDSStatus: 'CHALLENGE_COMPLETED', threeDSRequest });
  const codes = (url: string, sent: string) =>
    continuationProblems(url, completed(sent), 'purchase').map((p) => p.code);

  it("the sandbox's URL, or its last segment", () => {
    const url = 'https://api.example/sandbox/3ds/sbx_3ds_AAAAAAAAAAAAAAAA';
    expect(codes(url, url)).toEqual([]);
    expect(codes(url, 'sbx_3ds_AAAAAAAAAAAAAAAA')).toEqual([]);
    expect(codes(url, 'sbx_3ds_BBBBBBBBBBBBBBBB')).toEqual(['THREEDS_REQUEST_MISMATCH']);
  });

  it("a gateway's URL with a query (Stripe's): the whole URL, or its path's last segment", () => {
    const url = 'https://hooks.stripe.com/3d_secure_2/hosted?payment_intent=pi_1&payment_intent_client_secret=s';
    expect(codes(url, url)).toEqual([]);
    expect(codes(url, 'hosted')).toEqual([]);
    expect(codes(url, 'https://hooks.stripe.com/3d_secure_2/other?payment_intent=pi_1')).toEqual([
      'THREEDS_REQUEST_MISMATCH',
    ]);
  });
});
