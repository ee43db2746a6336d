import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoLogin, demoPassword } from '../../src/auth/setup.js';
import { partnerLogin, postToken } from '../auth/support.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';

/**
 * A plan's purchase terms reserved to partner groups (brandau: term 1104, DEMOA's commission) are
 * the caller's own partner's only: without `partnerCode` the token's partner is meant, another
 * partner's code is refused, and the front cache never hands one partner's answer to another.
 */
const RESERVED_TERM = 1104;
let t: TestApp;
let origin: string;
const auth: Record<'DEMOA' | 'DEMOB', Record<string, string>> = { DEMOA: {}, DEMOB: {} };

beforeAll(async () => {
  t = await buildTestApp({
    env: { DEMO_DATA: 'true', CATALOGUE_REFRESH_SECONDS: '60' },
    clock: () => new Date('2026-05-15T03:00:00Z'),
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  for (const partner of ['DEMOA', 'DEMOB'] as const) {
    const res = await postToken(
      t.app,
      partnerLogin(demoLogin(partner, 'brandau'), demoPassword(partner, 'brandau')),
    );
    expect(res.statusCode).toBe(200);
    auth[partner] = { authorization: `Bearer ${res.json<{ access_token: string }>().access_token}` };
  }
});
afterAll(async () => t.close());

interface PlanAnswer {
  status: number;
  body: { purchaseTermsAndConditions?: { termConditionId: number }[]; validation?: unknown };
}

const termsOf = (answer: PlanAnswer) => answer.body.purchaseTermsAndConditions?.map((term) => term.termConditionId);

async function injected(partner: 'DEMOA' | 'DEMOB', query: string): Promise<PlanAnswer> {
  const res = await t.app.inject({ method: 'GET', url: `/products/v1/brandau/plans?${query}`, headers: auth[partner] });
  return { status: res.statusCode, body: res.json() };
}

function overHttp(partner: 'DEMOA' | 'DEMOB', query: string): Promise<PlanAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}/products/v1/brandau/plans?${query}`, { headers: auth[partner] }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) as PlanAnswer['body'] }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe(`plan terms reserved to a partner (${DIALECT})`, () => {
  it("without partnerCode the caller's own partner is meant", async () => {
    const a = await injected('DEMOA', 'planCode=COMP');
    const b = await injected('DEMOB', 'planCode=COMP');
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(termsOf(a)).toContain(RESERVED_TERM);
    expect(termsOf(b)).not.toContain(RESERVED_TERM);
    // Its own code, in any letter case, changes nothing.
    expect(termsOf(await injected('DEMOA', 'planCode=COMP&partnerCode=demoa'))).toEqual(termsOf(a));
    expect(termsOf(await injected('DEMOB', 'planCode=COMP&partnerCode=DEMOB'))).toEqual(termsOf(b));
  });

  it("another partner's code is refused with 403 PARTNER_NOT_ALLOWED", async () => {
    const refused = await injected('DEMOB', 'planCode=COMP&partnerCode=DEMOA');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      validation: {
        isValid: false,
        errors: [
          {
            code: 'PARTNER_NOT_ALLOWED',
            message: "partnerCode must be the caller's own partner (or left out).",
            property: 'partnerCode',
          },
        ],
      },
    });
    expect(JSON.stringify(refused.body)).not.toContain('commission');
  });

  it('the front cache answers each partner its own terms over a real connection', async () => {
    const cache = t.app.frontCache;
    for (const query of ['planCode=COMP&lang=en', 'planCode=COMP&partnerCode=DEMOA&lang=en']) {
      await overHttp('DEMOA', query);
      const before = cache.answered;
      const fromMemory = await overHttp('DEMOA', query);
      expect(cache.answered, `${query} answered from memory`).toBe(before + 1);
      expect(termsOf(fromMemory)).toContain(RESERVED_TERM);
    }
    // The same URLs for DEMOB: never DEMOA's remembered answer.
    const plain = await overHttp('DEMOB', 'planCode=COMP&lang=en');
    expect(plain.status).toBe(200);
    expect(termsOf(plain)).not.toContain(RESERVED_TERM);
    const again = await overHttp('DEMOB', 'planCode=COMP&lang=en');
    expect(termsOf(again)).not.toContain(RESERVED_TERM);
    const before = cache.answered;
    for (let i = 0; i < 2; i += 1) {
      const other = await overHttp('DEMOB', 'planCode=COMP&partnerCode=DEMOA&lang=en');
      expect(other.status).toBe(403);
      expect(JSON.stringify(other.body)).not.toContain('commission');
    }
    expect(cache.answered).toBe(before);
    // DEMOA's own answer is still remembered for DEMOA alone.
    expect(termsOf(await overHttp('DEMOA', 'planCode=COMP&lang=en'))).toContain(RESERVED_TERM);
    expect(cache.answered).toBe(before + 1);
  });
});
