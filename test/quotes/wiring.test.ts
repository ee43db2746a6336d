import { describe, expect, it } from 'vitest';
import { updateQuote } from '../../src/quotes/repository.js';
import { buildTestApp } from '../helpers/app.js';
import { baliTrip, fixturePorts, NOW } from './fixtures.js';
import { asPartner } from './partners.js';

describe('quotes wiring', () => {
  it('answers 503 CATALOGUE_NOT_LOADED when no catalogue was ever imported, never a made-up price', async () => {
    const t = await buildTestApp({ clock: () => NOW });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/quotes/v2/brandau/quote',
        headers: await asPartner(t, 'brandau'),
        payload: { input: baliTrip() },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().validation.errors[0].code).toBe('CATALOGUE_NOT_LOADED');
    } finally {
      await t.close();
    }
  });

  it('answers 401 to a request without a bearer token', async () => {
    const t = await buildTestApp({ clock: () => NOW, appOptions: { quotePorts: fixturePorts() } });
    try {
      // No token and no test principal: before the identity merge principalOf refuses, after it the auth guard does.
      for (const [method, url] of [
        ['POST', '/quotes/v2/brandau/quote'],
        ['GET', '/quotes/v2/brandau/quote/x'],
      ] as const) {
        const res = await t.app.inject({ method, url, payload: method === 'POST' ? { input: baliTrip() } : undefined });
        expect(res.statusCode).toBe(401);
      }
      // A real caller on the same app is served, so the 401 above is about the missing token.
      const ok = await t.app.inject({
        method: 'POST',
        url: '/quotes/v2/brandau/quote',
        headers: await asPartner(t, 'brandau'),
        payload: { input: baliTrip() },
      });
      expect(ok.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('refuses a stale update: only the writer of the latest revision wins', async () => {
    const t = await buildTestApp({ clock: () => NOW, appOptions: { quotePorts: fixturePorts() } });
    try {
      const created = (
        await t.app.inject({
          method: 'POST',
          url: '/quotes/v2/brandau/quote',
          headers: await asPartner(t, 'brandau'),
          payload: { input: baliTrip() },
        })
      ).json();
      const row = await t.context.db
        .selectFrom('quote')
        .select(['revision'])
        .where('public_id', '=', created.id)
        .executeTakeFirstOrThrow();
      const record = {
        stage: 'BASEQUOTE' as const,
        customerUserId: 0,
        input: baliTrip(),
        pricing: { priceResults: [], prices: [] },
        validation: { isValid: true, errors: [] },
        pricedVersion: 'v',
        hasConfigChanged: false,
        evaluatedAt: NOW.toISOString(),
        audit: {
          createdAt: '',
          createdByUserId: 1,
          createdByUsername: 'x',
          updatedAt: NOW.toISOString(),
          updatedByUserId: 1,
          updatedByUsername: 'x',
        },
      };
      expect(await updateQuote(t.context.db, created.id, row.revision, record)).toMatchObject({
        revision: row.revision + 1,
      });
      expect(await updateQuote(t.context.db, created.id, row.revision, record)).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
