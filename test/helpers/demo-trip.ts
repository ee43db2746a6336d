// The demo partner's trip, as sdk/examples/quick-start.ts writes it out for partners (that example
// stands alone, so it keeps its own copy). No Node API: the SDK's browser walk uses it too.

/** `days` from today as YYYY-MM-DD (UTC), so the trip never rots. */
export function daysFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export interface DemoTripOptions {
  /** Defaults: 20 and 26 days from today. */
  readonly departureDate?: string;
  readonly returnDate?: string;
  /** The traveller's guid, where a step names the traveller. */
  readonly guid?: string;
}

/** A single trip from Melbourne to New Zealand for one adult, with every detail stage DETAILS needs. */
export function demoTrip<Plan>(planId: Plan, options: DemoTripOptions = {}) {
  return {
    quoteType: 'SINGLETRIP' as const,
    planId,
    homeAddress: { countryCode: 'AUS', provinceCode: 'VIC', addressLine1: '2 Collins St', postalCode: '3000' },
    destinationCountryCodes: ['NZL'],
    departureDate: options.departureDate ?? daysFromToday(20),
    returnDate: options.returnDate ?? daysFromToday(26),
    policyHolders: [
      {
        ...(options.guid === undefined ? {} : { guid: options.guid }),
        dateOfBirth: '1980-02-03',
        isPrimary: true,
        firstName: 'Grace',
        lastName: 'Hopper',
        emailAddress: 'grace@example.com',
        phoneNumber: '+61 400 111 222',
      },
    ],
  };
}
