import { createRequire } from 'node:module';
import { isIP } from 'node:net';

/**
 * The country an IP address is registered in, offline: the `geoip-country` package's copy of
 * MaxMind's GeoLite2 Country data (licence and update path: docs/decisions.md, "ipAddressCountry").
 * ISO 3166 alpha-2, upper case; undefined for loopback, private and other unrouted addresses (the
 * data has no country for them) and for text that is no IP address.
 */

interface GeoIp {
  lookup(ip: string): { country?: string } | null;
}

let geoip: GeoIp | undefined;
// The package reads its data files when first required (a few MB): only when an address is looked up.
const data = (): GeoIp => (geoip ??= createRequire(import.meta.url)('geoip-country') as GeoIp);

export function countryOfIp(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  const ip = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  if (isIP(ip) === 0) return undefined;
  const country = data().lookup(ip)?.country;
  return country && /^[A-Z]{2}$/.test(country) ? country : undefined;
}
