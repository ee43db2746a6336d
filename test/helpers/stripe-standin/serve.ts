import { startStripeStandin } from './server.js';

/**
 * Runs the Stripe stand-in on its own for a staging demo (`npx tsx test/helpers/stripe-standin/serve.ts`):
 * prints the environment that points the service at it, and serves until interrupted.
 */
const standin = await startStripeStandin();
process.stdout.write(
  `Stripe stand-in on ${standin.url}\n${Object.entries(standin.env)
    .map(([name, value]) => `${name}=${value}`)
    .join('\n')}\n`,
);
const stop = () => void standin.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
