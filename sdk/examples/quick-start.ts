// Buys a policy with the SDK as the demo partner: BASE_URL=http://127.0.0.1:3000 npx tsx sdk/examples/quick-start.ts
import { PartnerClient, PartnerApiError } from '../src/index.js';

const client = new PartnerClient({
  baseUrl: process.env['BASE_URL'] ?? 'http://127.0.0.1:3000',
  brand: 'brandau',
  credentials: { username: 'demoa.brandau@demo.example', password: 'DEMOA-brandau-demo-pass' },
});

const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

try {
  const plan = await client.products.plan({ planCode: 'COMP', partnerCode: 'DEMOA' });
  const quote = await client.quotes.create({
    stage: 'DETAILS',
    input: {
      quoteType: 'SINGLETRIP',
      planId: plan.planId ?? 0,
      homeAddress: { countryCode: 'AUS', provinceCode: 'VIC', addressLine1: '2 Collins St', postalCode: '3000' },
      destinationCountryCodes: ['NZL'],
      departureDate: day(20),
      returnDate: day(26),
      policyHolders: [
        {
          dateOfBirth: '1980-02-03',
          isPrimary: true,
          firstName: 'Grace',
          lastName: 'Hopper',
          emailAddress: 'grace@example.com',
          phoneNumber: '+61 400 111 222',
        },
      ],
    },
  });
  const declarations = (plan.purchaseTermsAndConditions ?? [])
    .filter((term) => term.policyActionTypeId === 1)
    .map((term) => ({ termConditionId: term.termConditionId, hasAgreed: true }));
  // One Idempotency-Key is made for this call and kept across its retries.
  const bought = await client.purchases.create({
    quote: { id: quote.id ?? '', input: { regulatoryDeclarations: declarations } },
    cardToken: { token: 'tok_sandbox_approved' },
  });
  const price = quote.prices?.find((p) => p.planId === plan.planId)?.totalPrice;
  console.log(JSON.stringify({ paymentResult: bought.paymentResult, policyNumber: bought.quote?.policyNumber, price }));
} catch (error) {
  if (error instanceof PartnerApiError) {
    console.error(JSON.stringify({ kind: error.kind, status: error.status, errors: error.errors }));
    process.exitCode = 1;
  } else throw error;
}
