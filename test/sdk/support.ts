import { afterAll, beforeAll } from 'vitest';
import { PartnerClient, type PartnerClientOptions } from '../../sdk/src/index.js';
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

export { daysFromToday, readyPurchase, required, tripInput, type QuoteInput } from './walk-steps.js';
