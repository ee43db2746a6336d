import { afterAll, beforeAll } from 'vitest';
import { PartnerClient, type Body, type PartnerClientOptions } from '../../sdk/src/index.js';
import { OUTBOX_TIMING, startChildServer, type ChildServer } from '../helpers/child-server.js';
import type { TestDatabase } from '../helpers/database.js';
import { createMigratedTestDatabase } from '../helpers/migrated-database.js';

/** The demo partner A's brandau user (README, "Getting a token"). */
export const DEMO_CREDENTIALS = {
  username: 'demoa.brandau@demo.example',
  password: 'DEMOA-brandau-demo-pass',
} as const;

/** A real server (`cli.ts serve`, outbox worker included) with demo data on a fresh database of the suite's engine. */
export function useSdkServer(env: Record<string, string> = {}): () => ChildServer {
  let database: TestDatabase | undefined;
  let server: ChildServer | undefined;
  beforeAll(async () => {
    database = await createMigratedTestDatabase();
    server = await startChildServer({
      ...database.env,
      DEMO_DATA: 'true',
      OUTBOX_INTERVAL_MS: '100',
      ...OUTBOX_TIMING,
      WEBHOOK_RETRY_DELAYS: '1s,1s,1s',
      ...env,
    });
  });
  afterAll(async () => {
    server?.kill();
    await server?.exited;
    await database?.destroy();
  });
  return () => {
    if (!server) throw new Error('server not started yet');
    return server;
  };
}

export function demoClient(baseUrl: string, options: Partial<PartnerClientOptions> = {}): PartnerClient {
  return new PartnerClient({ baseUrl, brand: 'brandau', credentials: DEMO_CREDENTIALS, ...options });
}

/** `days` from today as YYYY-MM-DD (UTC), so the trip never rots. */
export function daysFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export type QuoteInput = Body<'createQuote'>['input'];

/** A single trip from Melbourne to New Zealand for one adult, with every detail stage DETAILS needs. */
export function tripInput(planId: number): QuoteInput {
  return {
    quoteType: 'SINGLETRIP',
    planId,
    homeAddress: { countryCode: 'AUS', provinceCode: 'VIC', addressLine1: '2 Collins St', postalCode: '3000' },
    destinationCountryCodes: ['NZL'],
    departureDate: daysFromToday(20),
    returnDate: daysFromToday(26),
    policyHolders: [
      {
        guid: 'traveller-1',
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

/** A COMP quote at stage DETAILS and the purchase body that buys it with `cardToken`. */
export async function readyPurchase(client: PartnerClient, cardToken: string) {
  const plan = await client.products.plan({ planCode: 'COMP', partnerCode: 'DEMOA' });
  const input = tripInput(required(plan.planId, 'planId'));
  const quote = await client.quotes.create({ stage: 'DETAILS', input });
  const regulatoryDeclarations = (plan.purchaseTermsAndConditions ?? [])
    .filter((term) => term.policyActionTypeId === 1)
    .map((term) => ({ termConditionId: term.termConditionId, hasAgreed: true }));
  const body: Body<'purchaseQuote'> = {
    quote: { id: required(quote.id, 'quote id'), input: { regulatoryDeclarations } },
    cardToken: { token: cardToken, source: 'hosted-page' },
  };
  return { quote, input, body };
}

/** Follows a 3-D Secure challenge like the cardholder's browser: GET the page, POST the decision its form names. */
export async function approveChallenge(challenge: string, serverUrl: string): Promise<void> {
  // The page's address names the server's public origin; the test's server listens on its own port.
  const url = new URL(new URL(challenge).pathname, serverUrl).toString();
  const page = await fetch(url);
  const action = /<form method="post" action="([^"]+)">/.exec(await page.text())?.[1];
  if (!action) throw new Error('no challenge form');
  const answer = await fetch(new URL(action, url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'decision=approve',
  });
  if (answer.status !== 200) throw new Error(`challenge answered ${answer.status}`);
}

/** A field the contract marks optional that this step must have. */
export function required<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`missing ${what}`);
  return value;
}
