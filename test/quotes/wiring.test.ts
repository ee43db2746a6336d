import { describe, expect, it } from 'vitest';
import { updateQuote } from '../../src/quotes/repository.js';
import { buildTestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import { baliTrip, fixturePorts, NOW } from './fixtures.js';
import { asPartner, installTestPrincipals } from './partners.js';

describe('quotes wiring', () => {
  it('answers 503 CATALOGUE_UNAVAILABLE when no catalogue and pricing are connected, never a made-up price', async () => {
    const t = await buildTestApp({ clock: () => NOW, beforeReady: installTestPrincipals });
    try {
      const res = await t.app.inject({ method: 'POST', url: '/quotes/v2/brandau/quote', headers: await asPartner(t, 'brandau'), payload: { input: baliTrip() } });
      expect(res.statusCode).toBe(503);
      expect(res.json().validation.errors[0].code).toBe('CATALOGUE_UNAVAILABLE');
    } finally {
      await t.close();
    }
  });

  it('answers 401 without an authenticated caller and 404 for an unknown brand', async () => {
    const t = await buildTestApp({ clock: () => NOW, appOptions: { quotePorts: fixturePorts() } });
    try {
      const res = await t.app.inject({ method: 'POST', url: '/quotes/v2/brandau/quote', headers: await bearerFor(t, 'brandau'), payload: { input: baliTrip() } });
      // MERGE: with the identity area this is a request with no (or a bad) bearer token.
      expect(res.statusCode).toBe(401);
      const brand = await t.app.inject({ method: 'GET', url: '/quotes/v2/acme/quote/x' });
      expect(brand.statusCode).toBe(404);
      expect(brand.json().validation.errors[0].code).toBe('UNKNOWN_BRAND');
    } finally {
      await t.close();
    }
  });

  it('refuses a stale update: only the writer of the latest revision wins', async () => {
    const t = await buildTestApp({ clock: () => NOW, appOptions: { quotePorts: fixturePorts() }, beforeReady: installTestPrincipals });
    try {
      const created = (await t.app.inject({ method: 'POST', url: '/quotes/v2/brandau/quote', headers: await asPartner(t, 'brandau'), payload: { input: baliTrip() } })).json();
      const row = await t.context.db.selectFrom('quote').select(['revision']).where('public_id', '=', created.id).executeTakeFirstOrThrow();
      const record = {
        stage: 'BASEQUOTE' as const, customerUserId: 0, input: baliTrip(), pricing: { priceResults: [], prices: [] }, validation: { isValid: true, errors: [] },
        pricedVersion: 'v', hasConfigChanged: false, evaluatedAt: NOW.toISOString(),
        audit: { createdAt: '', createdByUserId: 1, createdByUsername: 'x', updatedAt: NOW.toISOString(), updatedByUserId: 1, updatedByUsername: 'x' },
      };
      expect(await updateQuote(t.context.db, created.id, row.revision, record)).toMatchObject({ revision: row.revision + 1 });
      expect(await updateQuote(t.context.db, created.id, row.revision, record)).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
