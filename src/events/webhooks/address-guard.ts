import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may go (SSRF, OWASP API7). Production: `https` only, and every address a host
 * name resolves to must be public unicast: loopback, private (10/8, 172.16/12, 192.168/16),
 * link-local (169.254/16 with the cloud metadata address, fe80::/10), unique-local (fc00::/7),
 * unspecified, CGNAT (100.64/10), multicast, broadcast, reserved and documentation ranges are
 * refused, also inside IPv4-mapped IPv6 (`::ffff:127.0.0.1`) and NAT64/6to4/Teredo forms. Staging
 * allows `http` too, and loopback (to try webhooks on one machine) but no other private class.
 * Checked at registration and again at delivery through `guardedLookup`, which hands the socket
 * only the addresses it checked (a name that rebinds to 127.0.0.1 between the two is refused).
 */
export interface AddressRules {
  readonly production: boolean;
}

/** Resolves a host name to every address (dns.lookup, all: true); tests inject their own. */
export type Resolver = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Longest a registration waits for the host's addresses. */
const REGISTRATION_LOOKUP_MS = 5000;

/** Names that mean "this machine or its network" whatever DNS says. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** The reason an address is refused (its ipaddr.js range), or undefined when it may be called. */
export function refusedAddress(address: string, rules: AddressRules): string | undefined {
  if (!ipaddr.isValid(address)) return 'invalid';
  // process(): an IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  // ipaddr.js calls the deprecated IPv4-compatible form (::a.b.c.d) unicast; it may reach a.b.c.d.
  if (range === 'unicast' && parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && !rules.production) return undefined;
  return range;
}

/** Why a URL may not be a webhook endpoint, before any name is resolved; undefined when it may. */
export function refusedUrl(url: URL, rules: AddressRules): string | undefined {
  const schemes = rules.production ? ['https:'] : ['https:', 'http:'];
  if (!schemes.includes(url.protocol)) return rules.production ? 'not https' : 'not http(s)';
  if (url.username !== '' || url.password !== '') return 'credentials in the URL';
  const host = hostOf(url);
  if (isIP(host)) return refusedAddress(host, rules);
  if (host === '' || !host.includes('.') || LOCAL_NAME.test(host.replace(/\.$/, '')))
    return rules.production || !/^localhost\.?$/i.test(host) ? 'local host name' : undefined;
  return undefined;
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Checks a URL and every address its host resolves to; resolves to the refusal reason, or
 * undefined when it may be called. A name that does not resolve is refused too.
 */
export async function refusedDestination(
  url: URL,
  rules: AddressRules,
  resolve: Resolver,
): Promise<string | undefined> {
  const early = refusedUrl(url, rules);
  if (early !== undefined) return early;
  const host = hostOf(url);
  if (isIP(host)) return undefined;
  let addresses: readonly LookupAddress[];
  let timer: NodeJS.Timeout | undefined;
  try {
    // Bounded: a registration request does not wait on a slow name server.
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('DNS timeout')), REGISTRATION_LOOKUP_MS);
    });
    addresses = await Promise.race([resolve(host), late]);
  } catch {
    return 'does not resolve';
  } finally {
    clearTimeout(timer);
  }
  if (addresses.length === 0) return 'does not resolve';
  for (const { address } of addresses) {
    const refused = refusedAddress(address, rules);
    if (refused !== undefined) return `resolves to ${refused}`;
  }
  return undefined;
}

/** The error a guarded lookup fails the connection with. */
export class AddressRefused extends Error {
  readonly code = 'ADDRESS_REFUSED';
  constructor(readonly reason: string) {
    super(`webhook address refused: ${reason}`);
    this.name = 'AddressRefused';
  }
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http(s) `request`: resolves the name with `resolve`, refuses the connection
 * when any address is not allowed, and answers only the checked addresses, so the socket connects
 * to what was checked (DNS rebinding cannot swap the address after the check).
 */
export function guardedLookup(rules: AddressRules, resolve: Resolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (found) => {
        const refused =
          found.length === 0
            ? 'does not resolve'
            : found.map((a) => refusedAddress(a.address, rules)).find((r) => r !== undefined);
        if (refused !== undefined) return callback(new AddressRefused(refused), '', 0);
        const wanted =
          options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
        if (wanted.length === 0) return callback(new AddressRefused('no address of the family asked'), '', 0);
        if (options.all) return callback(null, [...wanted]);
        const first = wanted[0] as LookupAddress;
        return callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), '', 0),
    );
  };
}
