import { describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECT } from '../helpers/database.js';
import { startChildServer } from '../helpers/child-server.js';
import { startStripeStandin, STANDIN_SECRET_KEY } from '../helpers/stripe-standin/server.js';

/** `APP_ENV=production` as an operator starts it (`cli.ts serve`), its card gateway Stripe at the stand-in. */
const PRODUCTION = {
  APP_ENV: 'production',
  PUBLIC_BASE_URL: 'https://api.insurer.example',
  KEY_ENCRYPTION_SECRET: 'production-process-secret-of-at-least-32-characters',
  CONSOLE_SESSION_SECRET: 'a-console-session-secret-of-32-characters-or-more',
  SMTP_URL: 'smtp://127.0.0.1:9',
};

describe(`a production process with Stripe (${DIALECT})`, () => {
  it('starts with the Stripe gateway pointed at the stand-in, and never logs the key', async () => {
    const database = await createTestDatabase();
    const standin = await startStripeStandin();
    const server = await startChildServer({ ...database.env, ...PRODUCTION, ...standin.env });
    try {
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      expect((await fetch(`${server.url}/stripe/3ds/return`)).status).toBe(200);
      // The sandbox's pages are not served in production.
      expect((await fetch(`${server.url}/sandbox/3ds/sbx_3ds_AAAAAAAAAAAAAAAA`)).status).toBe(404);
      expect(JSON.stringify(server.logs)).not.toContain(STANDIN_SECRET_KEY);
    } finally {
      server.kill();
      await standin.close();
      await database.destroy();
    }
  });

  it('refuses to start with the sandbox for a brand (exit 2), naming the variable', async () => {
    const database = await createTestDatabase();
    const standin = await startStripeStandin();
    try {
      const refused = startChildServer({
        ...database.env,
        ...PRODUCTION,
        ...standin.env,
        PAYMENT_GATEWAY_BRANDS: 'nomad:sandbox',
      });
      await expect(refused).rejects.toThrow(/exited with 2[\s\S]*PAYMENT_GATEWAY/);
    } finally {
      await standin.close();
      await database.destroy();
    }
  });
});
