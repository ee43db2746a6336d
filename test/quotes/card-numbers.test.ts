import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/logging/options.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { baliTrip, fixturePorts, NOW } from './fixtures.js';
import { asPartner } from './partners.js';

// Every log line the app writes, at the most verbose level, through the production logger options.
const logLines: string[] = [];
const stream = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    logLines.push(chunk.toString('utf8'));
    callback();
  },
});
const getApp = useTestApp({
  clock: () => NOW,
  appOptions: { quotePorts: fixturePorts(), logger: { ...loggerOptions({ logLevel: 'trace' }), stream } },
});

const PANS = ['4111 1111 1111 1111', '5555-5555-5555-4444', '378282246310005'];
const digitsOf = (pan: string) => pan.replace(/\D/g, '');

/** Every value of every table, as one text. */
async function everything(): Promise<string> {
  const { db } = getApp().context;
  // PostgreSQL introspection lists every schema's tables: other test files' are not ours to read.
  const own =
    DIALECT === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const tables = (await db.introspection.getTables()).filter((t) => own === undefined || t.schema === own);
  const dumps = await Promise.all(
    tables.map(async (t) =>
      JSON.stringify(
        await db
          .selectFrom(t.name as 'quote')
          .selectAll()
          .execute(),
      ),
    ),
  );
  return dumps.join('\n');
}

function expectNowhere(pan: string, ...texts: string[]): void {
  for (const text of texts) {
    expect(text).not.toContain(pan);
    expect(text.replace(/[\s-]/g, '')).not.toContain(digitsOf(pan));
  }
}

describe('card numbers in quote bodies', () => {
  it('refuses a card number in firstName with 400 naming the property, stores and logs nothing of it', async () => {
    const t = getApp();
    const input = baliTrip();
    input.policyHolders[0] = { ...input.policyHolders[0], firstName: PANS[0] };
    const res = await t.app.inject({
      method: 'POST',
      url: '/quotes/v2/brandau/quote',
      headers: await asPartner(t, 'brandau'),
      payload: { input },
    });
    expect(res.statusCode).toBe(400);
    const notification = res.json().validation.errors[0];
    expect(notification).toMatchObject({ code: 'CARD_NUMBER_REFUSED', property: 'input.policyHolders[0].firstName' });
    expect(notification.value).toBeUndefined();
    expectNowhere(PANS[0]!, res.body, await everything(), logLines.join(''));
    expect(logLines.length).toBeGreaterThan(0); // the capture works: the request itself was logged
  });

  it('finds card numbers in any string, also with dashes, in malformed bodies and on PUT', async () => {
    const t = getApp();
    const headers = await asPartner(t, 'brandau');
    const created = (
      await t.app.inject({ method: 'POST', url: '/quotes/v2/brandau/quote', headers, payload: { input: baliTrip() } })
    ).json();
    const bodies = [
      { input: { ...baliTrip(), externalIdentifiers: { bookingReference: PANS[1] } } },
      { input: { ...baliTrip(), planId: 'not a number', campaignCode: PANS[2] } },
      { clientInfo: { referer: `https://shop.example/pay?card=${PANS[1]}` }, input: baliTrip() },
    ];
    for (const payload of bodies) {
      for (const [method, url] of [
        ['POST', '/quotes/v2/brandau/quote'],
        ['PUT', `/quotes/v2/brandau/quote/${created.id}`],
      ] as const) {
        const res = await t.app.inject({ method, url, headers, payload });
        expect(res.statusCode).toBe(400);
        expect(res.json().validation.errors).toEqual([expect.objectContaining({ code: 'CARD_NUMBER_REFUSED' })]);
      }
    }
    const dump = await everything();
    for (const pan of PANS) expectNowhere(pan, dump, logLines.join(''));
  });

  it('accepts long digit strings that are not card numbers', async () => {
    const t = getApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/quotes/v2/brandau/quote',
      headers: await asPartner(t, 'brandau'),
      payload: {
        input: {
          ...baliTrip(),
          externalIdentifiers: {
            bookingReference: '4111 1111 1111 1112',
            externalMembershipNumber: '41111111111111111111111',
          },
        },
      },
    });
    expect(res.statusCode).toBe(200);
  });
});
