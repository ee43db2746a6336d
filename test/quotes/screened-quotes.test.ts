import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { screened } from '../screening/screened.js';
import { baliTrip, fixturePorts, NOW } from './fixtures.js';
import { asPartner } from './partners.js';

const ports = fixturePorts();
const getApp = useTestApp({ clock: () => NOW, appOptions: { quotePorts: ports } });
const path = '/quotes/v2/brandau/quote';

/** The Bali trip with holder details, the comprehensive plan chosen, Ann opted in for screening and cover. */
function detailed() {
  const trip = baliTrip();
  trip.planId = 101;
  trip.homeAddress = { countryCode: 'AUS', provinceCode: 'NSW', addressLine1: '1 George St', postalCode: '2000' };
  trip.policyHolders = trip.policyHolders.map((h, i) => ({
    ...h,
    guid: `h${i}`,
    dateOfBirth: ['1984-05-01', '1986-03-15', '2017-01-09'][i],
    age: undefined,
    firstName: 'Ann',
    lastName: 'Lee',
    phoneNumber: '+61 2 5550 1234',
    travelClearOption: { optionType: 'TRAVELCLEAR', isOptedInForScreening: i === 0, isOptedInForCover: i === 0 },
  }));
  return trip;
}

describe('a quote with a screened traveller (screenings from the real engine)', () => {
  it('stays at DETAILS until the screening completes, then prices the medical premium of the chosen plan', async () => {
    const t = getApp();
    const headers = await asPartner(t, 'brandau', 'A');
    ports.travellerScreenings.length = 0;
    const created = (await t.app.inject({ method: 'POST', url: path, headers, payload: { input: detailed() } })).json();
    const put = () =>
      t.app.inject({
        method: 'PUT',
        url: `${path}/${created.id}`,
        headers,
        payload: { stage: 'MEDICAL_SCREENING', input: detailed() },
      });

    const waiting = (await put()).json();
    expect(waiting.stage).toBe('DETAILS');
    expect(waiting.validation.errors[0]).toMatchObject({
      code: 'SCREENING_REQUIRED',
      property: 'input.policyHolders[0].travelClearOption',
    });
    expect(ports.pricingRequests.at(-1)?.medicalPremiums).toEqual([]);

    ports.travellerScreenings.push(await screened('h0', ['TEST_COVERED'], { status: 'STALE' }));
    expect((await put()).json().validation.errors[0].code).toBe('SCREENING_STALE');

    ports.travellerScreenings.length = 0;
    ports.travellerScreenings.push(await screened('h0', ['TEST_COVERED']), await screened('h1', ['TEST_COVERED']));
    const res = await put();
    expect(res.statusCode).toBe(200);
    expect(res.json().stage).toBe('MEDICAL_SCREENING');
    // Only the traveller opted in for cover, only the chosen plan: 60.00 AUD as 6000 cents.
    expect(ports.pricingRequests.at(-1)?.medicalPremiums).toEqual([
      { planId: 101, travellerGuid: 'h0', premium: 6000 },
    ]);
  });
});
