import { isIP } from 'node:net';
import { Type, type Static } from 'typebox';
import { ENV_FLAG_VALUES } from './rate-limits.js';

/** How the process sits in its deployment: the proxy in front of it, who migrates (parsed with the rest in config.ts). */
export const DeploymentEnvSchema = Type.Object({
  MIGRATE_ON_START: Type.Enum([...ENV_FLAG_VALUES], {
    default: 'true',
    description:
      'true: `serve` applies pending migrations before listening. false: migrations are their own deployment step (`migrate`); `serve` refuses to start on a database that is behind.',
  }),
  TRUST_PROXY: Type.Optional(
    Type.String({
      description:
        'Who may tell the client address in X-Forwarded-For: the proxies’ addresses or CIDR ranges (comma separated, or loopback, linklocal, uniquelocal), or the number of proxy hops. Unset: nobody (the socket address).',
    }),
  ),
});

/**
 * Which proxies' `X-Forwarded-For` and `X-Forwarded-Proto` are believed: none, the nearest N hops,
 * or the named addresses and ranges. Never "every address": any client could then forge its own.
 */
export type TrustedProxies = false | number | readonly string[];

const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

const isAddressOrRange = (entry: string): boolean => {
  if (NAMED_RANGES.includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return Number.isInteger(n) && n >= 0 && n <= (version === 4 ? 32 : 128) && /^\d+$/.test(bits);
};

export function deploymentConfigProblems(env: Static<typeof DeploymentEnvSchema>): string[] {
  const value = env.TRUST_PROXY?.trim();
  if (value === undefined || value === '' || /^\d+$/.test(value)) return [];
  if (value === 'true')
    return ['TRUST_PROXY: "true" would let any client forge its address; name the proxies or the hop count'];
  const bad = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => !isAddressOrRange(entry));
  return bad.length > 0
    ? [`TRUST_PROXY: not an address, CIDR range or range name: ${bad.length} entr${bad.length === 1 ? 'y' : 'ies'}`]
    : [];
}

export function trustedProxiesFrom(env: Static<typeof DeploymentEnvSchema>): TrustedProxies {
  const value = env.TRUST_PROXY?.trim();
  if (value === undefined || value === '' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((entry) => entry.trim());
}

/** Whether `serve` migrates the database itself, or only checks that a separate `migrate` step did. */
export const migratesOnStart = (env: Static<typeof DeploymentEnvSchema>): boolean => env.MIGRATE_ON_START === 'true';
