import { describe, expect, it } from 'vitest';
import { guardedLookup, refusedAddress, refusedUrl, type Resolver } from './address-guard.js';

const production = { production: true };
const staging = { production: false };

describe('webhook address rules', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::127.0.0.1', 'loopback'],
    ['::a9fe:a9fe', 'ipv4Compatible'],
    ['::10.0.0.1', 'private'],
    ['::7f00:1', 'ipv4Compatible'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:a00:1::1', '6to4'],
  ])('production refuses %s (%s)', (address, range) => {
    expect(refusedAddress(address, production)).toBe(range);
  });

  it('production accepts public unicast addresses', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:93.184.216.34'])
      expect(refusedAddress(address, production), address).toBeUndefined();
  });

  it('staging accepts loopback, and refuses every other private class', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
      expect(refusedAddress(address, staging)).toBeUndefined();
    for (const address of ['10.0.0.1', '169.254.169.254', 'fd00::1', '100.64.0.1', '0.0.0.0'])
      expect(refusedAddress(address, staging), address).toBeDefined();
  });

  it('judges the URL before resolving: scheme, credentials, local names', () => {
    expect(refusedUrl(new URL('http://93.184.216.34/'), production)).toBe('not https');
    expect(refusedUrl(new URL('http://93.184.216.34/'), staging)).toBeUndefined();
    expect(refusedUrl(new URL('https://a:b@hooks.example/'), staging)).toBe('credentials in the URL');
    expect(refusedUrl(new URL('https://localhost/'), production)).toBe('local host name');
    expect(refusedUrl(new URL('http://localhost:3000/'), staging)).toBeUndefined();
    expect(refusedUrl(new URL('https://x.localhost/'), staging)).toBe('local host name');
    expect(refusedUrl(new URL('https://hooks.example/'), production)).toBeUndefined();
  });

  it('the guarded lookup answers only checked addresses and refuses any bad one', async () => {
    const resolve: Resolver = (name) =>
      Promise.resolve(
        name === 'good.example'
          ? [
              { address: '93.184.216.34', family: 4 },
              { address: '2606:4700::1111', family: 6 },
            ]
          : [
              { address: '93.184.216.34', family: 4 },
              { address: '127.0.0.1', family: 4 },
            ],
      );
    const lookup = guardedLookup(production, resolve);
    const ask = (name: string, options: { all?: boolean; family?: number }) =>
      new Promise<{ error: Error | null; address: unknown; family?: number }>((done) =>
        lookup(name, options, (error, address, family) => done({ error, address, family })),
      );
    expect(await ask('good.example', { all: true })).toMatchObject({
      error: null,
      address: [{ address: '93.184.216.34' }, { address: '2606:4700::1111' }],
    });
    expect(await ask('good.example', { family: 6 })).toMatchObject({ address: '2606:4700::1111', family: 6 });
    expect((await ask('bad.example', {})).error).toMatchObject({ code: 'ADDRESS_REFUSED' });
  });
});
