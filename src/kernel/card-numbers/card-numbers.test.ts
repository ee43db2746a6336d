import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CARD_NUMBER_REDACTED,
  containsCardNumber,
  findCardNumber,
  findCardNumbers,
  isCardNumber,
  luhnValid,
  redactCardNumbers,
  redactPath,
} from './card-numbers.js';

/** Appends the Luhn check digit to a digit string. */
function withCheckDigit(body: string): string {
  for (let d = 0; d <= 9; d += 1) if (luhnValid(`${body}${d}`)) return `${body}${d}`;
  throw new Error('unreachable');
}

/** Issuer prefixes of the schemes and their lengths (Visa, Mastercard both ranges, Amex, Discover, JCB, UnionPay, Maestro, Mir, UATP). */
const SCHEMES: readonly (readonly [string, readonly number[]])[] = [
  ['4', [13, 16, 19]],
  ['457631', [19]],
  ['51', [16]],
  ['2221', [16]],
  ['37', [15]],
  ['6011', [16, 19]],
  ['3530', [16, 19]],
  ['6212', [16, 19]],
  ['6759', [13, 19]],
  ['2200', [16]],
  ['1', [15]],
  ['1800', [15]],
  ['2131', [15]],
];

const pan = fc.constantFrom(...SCHEMES).chain(([prefix, lengths]) =>
  fc
    .constantFrom(...lengths)
    .chain((length) =>
      fc.array(fc.integer({ min: 0, max: 9 }), {
        minLength: length - 1 - prefix.length,
        maxLength: length - 1 - prefix.length,
      }),
    )
    .map((digits) => withCheckDigit(`${prefix}${digits.join('')}`)),
);

/** Splits a PAN into groups of 1–6 digits joined by the same separator. */
function grouped(value: string, sizes: number[], separator: string): string {
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; at < value.length; i += 1) {
    const size = sizes[i % sizes.length] ?? 4;
    parts.push(value.slice(at, at + size));
    at += size;
  }
  return parts.join(separator);
}

describe('luhnValid', () => {
  it('accepts known test PANs and rejects a changed digit', () => {
    for (const n of [
      '4111111111111111',
      '5555555555554444',
      '378282246310005',
      '6011111111111117',
      '4000056655665556',
    ]) {
      expect(luhnValid(n)).toBe(true);
      const changed = `${n.slice(0, -1)}${String((Number(n.at(-1)) + 1) % 10)}`;
      expect(luhnValid(changed)).toBe(false);
    }
  });
});

describe('containsCardNumber', () => {
  it.each([
    '4111111111111111',
    '4111 1111 1111 1111',
    '4111-1111-1111-1111',
    'card: 4111 1111 1111 1111, thanks',
    '3782 822463 10005',
    'call 0412 345 678 or pay 4111 1111 1111 1111',
    '4111 1111 1111 1111 123',
    'x4111111111111111y',
    '180000000000002', // JCB's older 15-digit range (shadows UATP's prefix 1)
    '4576310000000000000', // a 19-digit Visa in a range Elo also issues from (16 digits)
  ])('finds a PAN in %j', (text) => {
    expect(containsCardNumber(text)).toBe(true);
  });

  it.each([
    '4111111111111112', // Luhn fails
    '411111111111', // 12 digits
    '41111111111111111111111', // 23 glued digits: not a card number
    '4111  1111  1111  1111', // double spaces are not card grouping
    '2026-11-22',
    '+61 412 345 678',
    'tok_sandbox_approved',
    '',
  ])('finds nothing in %j', (text) => {
    expect(containsCardNumber(text)).toBe(false);
  });

  it('finds every valid PAN, plain or grouped, wherever it sits in text', () => {
    fc.assert(
      fc.property(
        pan,
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 5 }),
        fc.constantFrom('', ' ', '-'),
        fc.string({ maxLength: 10 }).map((s) => s.replace(/\d/g, '')),
        fc.string({ maxLength: 10 }).map((s) => s.replace(/\d/g, '')),
        (value, sizes, separator, before, after) => {
          const text = `${before}${separator ? grouped(value, sizes, separator) : value}${after}`;
          expect(containsCardNumber(text)).toBe(true);
        },
      ),
    );
  });

  it('never flags a digit string that fails Luhn, has the wrong length or is in no issuer range', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,30}$/), (digits) => {
        expect(containsCardNumber(digits)).toBe(isCardNumber(digits));
        if (digits.length < 13 || digits.length > 19 || !luhnValid(digits)) expect(isCardNumber(digits)).toBe(false);
      }),
    );
    // Luhn-valid, but no scheme issues these prefixes at these lengths.
    for (const body of ['179576800000', '774411880559437', '900000000000000', '300000000000'])
      expect(isCardNumber(withCheckDigit(body))).toBe(false);
  });

  it('never flags text without 13 digits', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        fc.pre((text.match(/\d/g) ?? []).length < 13);
        expect(containsCardNumber(text)).toBe(false);
      }),
    );
  });
});

describe('findCardNumbers', () => {
  it('names the JSON path of every field holding a PAN', () => {
    const body = {
      quote: {
        input: {
          policyHolders: [
            { firstName: 'Ann' },
            { firstName: '4111 1111 1111 1111', notes: ['ok', '5555-5555-5555-4444'] },
          ],
        },
      },
      cardToken: { token: 'tok_sandbox_approved' },
      amount: 4111111111111111,
      'weird key': '378282246310005',
      '4111111111111111': 'key holds one',
    };
    expect(findCardNumbers(body).sort()).toEqual(
      [
        'quote.input.policyHolders[1].firstName',
        'quote.input.policyHolders[1].notes[1]',
        'amount',
        '["weird key"]',
        '["4111111111111111"]',
      ].sort(),
    );
  });

  it('answers the root path for a bare string and nothing for clean values', () => {
    expect(findCardNumbers('4111111111111111')).toEqual(['']);
    expect(findCardNumbers({ a: [1, 2.5, true, null, 'x'], b: { c: '2026-11-22' } })).toEqual([]);
    expect(findCardNumbers(undefined)).toEqual([]);
  });

  it('copes with deep nesting and shared references', () => {
    let deep: unknown = '4111111111111111';
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(findCardNumbers(deep)).toHaveLength(1);
    const shared: Record<string, unknown> = { pan: '4111111111111111' };
    shared.self = shared;
    expect(findCardNumbers(shared)).toEqual(['pan']);
  });

  it('finds a PAN planted anywhere in an arbitrary JSON value, and only there', () => {
    fc.assert(
      fc.property(
        fc.jsonValue().filter((v) => findCardNumbers(v).length === 0),
        pan,
        fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 4 }),
        (clean, value, keys) => {
          const planted: Record<string, unknown> = { clean };
          let node = planted;
          for (const key of keys.slice(0, -1)) {
            const next: Record<string, unknown> = {};
            node[key] = next;
            node = next;
          }
          node[keys.at(-1)!] = `pay ${value} now`;
          expect(findCardNumbers(planted)).toEqual([keys.join('.')]);
        },
      ),
    );
  });
});

describe('identifiers are not card numbers', () => {
  it('never flags a UUID, even one whose digit groups pass the Luhn check', () => {
    // Without the rule about 1 in 500 random UUIDs is flagged (dash-separated digit groups).
    const uuids = Array.from({ length: 20_000 }, () => randomUUID());
    expect(uuids.filter((u) => findCardNumbers({ id: u }).length > 0)).toEqual([]);
    expect(findCardNumbers({ id: '41111111-1111-4111-8111-111111111111' })).toEqual([]);
  });

  it('accepts 100,000 random UUIDs without dashes, order-<epoch ms> keys and ULIDs', () => {
    const dashless = Array.from({ length: 100_000 }, () => randomUUID().replaceAll('-', ''));
    expect(dashless.filter(containsCardNumber)).toEqual([]);
    expect(containsCardNumber('7744118805594377a5983d4f5428f4b6')).toBe(false);
    const start = Date.UTC(2020, 0, 1);
    const orders = Array.from({ length: 100_000 }, (_, i) => `order-${start + i * 7919 + (i % 1000)}`);
    expect(orders.filter(containsCardNumber)).toEqual([]);
    expect(containsCardNumber('order-1795768000006')).toBe(false);
    const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    const ulid = (): string => {
      let time = Date.now() + Math.floor(Math.random() * 1e12);
      let head = '';
      for (let i = 0; i < 10; i += 1, time = Math.floor(time / 32)) head = `${crockford[time % 32] ?? ''}${head}`;
      const tail = Array.from({ length: 16 }, () => crockford[Math.floor(Math.random() * 32)] ?? '').join('');
      return `${head}${tail}`;
    };
    const ulids = Array.from({ length: 100_000 }, ulid);
    expect(ulids.filter(containsCardNumber)).toEqual([]);
  });

  it('accepts a UUID inside a longer key (`cancellation-<uuid>`), and still finds a PAN beside one', () => {
    // A key holding a UUID was refused about 1 time in 1,250 (its digit groups passed the Luhn check).
    const keys = Array.from({ length: 100_000 }, (_, i) =>
      i % 2 ? `cancellation-${randomUUID()}` : `order ${randomUUID().replaceAll('-', '')}:retry`,
    );
    expect(keys.filter(containsCardNumber)).toEqual([]);
    expect(containsCardNumber('cancellation-8174ab40-6784-4789-9355-77eb68c1f939')).toBe(false);
    const beside = 'key 8174ab40-6784-4789-9355-77eb68c1f939 card 4111 1111 1111 1111';
    expect(containsCardNumber(beside)).toBe(true);
    expect(redactCardNumbers(beside)).toBe(`key 8174ab40-6784-4789-9355-77eb68c1f939 card ${CARD_NUMBER_REDACTED}`);
  });

  it('still flags a card number written with dashes next to other text', () => {
    expect(findCardNumbers({ note: 'card 4111-1111-1111-1111 please' })).toEqual(['note']);
  });
});

/** The finder before paths were built lazily and the first match stopped the walk: the reference. */
function referenceFind(value: unknown): string[] {
  const identifier = /^[A-Za-z_$][\w$]*$/;
  const childPath = (parent: string, key: string | number) =>
    typeof key === 'number'
      ? `${parent}[${key}]`
      : identifier.test(key)
        ? parent
          ? `${parent}.${key}`
          : key
        : `${parent}[${JSON.stringify(key)}]`;
  const found: string[] = [];
  const seen = new WeakSet<object>();
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0) {
    const item = stack.pop();
    if (!item) break;
    const current = item.value;
    if (typeof current === 'string') {
      if (containsCardNumber(current)) found.push(item.path);
    } else if (typeof current === 'number' || typeof current === 'bigint') {
      if (Number.isInteger(Number(current)) && containsCardNumber(String(current))) found.push(item.path);
    } else if (current !== null && typeof current === 'object') {
      if (seen.has(current)) continue;
      seen.add(current);
      const entries: [string | number, unknown][] = Array.isArray(current)
        ? current.map((v, i): [number, unknown] => [i, v])
        : Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, child] = entries[i] as [string | number, unknown];
        const path = childPath(item.path, key);
        if (typeof key === 'string' && containsCardNumber(key)) found.push(path);
        stack.push({ value: child, path });
      }
    }
  }
  return found;
}

describe('findCardNumbers and findCardNumber against the previous finder', () => {
  it('give the same paths in the same order on generated bodies with PANs planted in values, numbers and keys', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 20 }),
      pan,
      pan.map((p) => `pay ${grouped(p, [4], ' ')} now`),
      fc.constantFrom('2026-11-22', '41111111-1111-4111-8111-111111111111', '0412 345 678'),
    );
    const key = fc.oneof(fc.string({ maxLength: 8 }), pan, fc.constantFrom('a b', '__proto__', 'x1', '1x'));
    const number = fc.oneof(
      fc.integer(),
      fc.double(),
      fc.constantFrom(4111111111111111, 378282246310005, 4111111111111112),
    );
    const body = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        number,
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(key, tie('node'), { maxKeys: 4 }).map((d) => JSON.parse(JSON.stringify(d)) as unknown),
      ),
    })).node;
    fc.assert(
      fc.property(body, (value) => {
        const expected = referenceFind(value);
        expect(findCardNumbers(value)).toEqual(expected);
        const first = expected[0];
        expect(findCardNumber(value)).toBe(first === '' ? 'body' : first);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('redactCardNumbers / redactPath', () => {
  it('replaces each digit run holding a PAN, keeps everything else, and returns the very string when clean', () => {
    expect(redactCardNumbers('ua 4111 1111 1111 1111 v2 and 12345')).toBe(`ua ${CARD_NUMBER_REDACTED} v2 and 12345`);
    expect(redactCardNumbers("Policy '4111111111111111' does not exist.")).toBe(
      `Policy '${CARD_NUMBER_REDACTED}' does not exist.`,
    );
    const clean = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36';
    expect(redactCardNumbers(clean)).toBe(clean);
    const uuid = '7f1a2c34-5b6d-4e8f-9a0b-1c2d3e4f5a6b';
    expect(redactCardNumbers(uuid)).toBe(uuid);
  });

  it('drops the query and replaces path segments holding a PAN, as sent or percent-encoded', () => {
    expect(redactPath('/policies/v1/brandau/policies/4111111111111111?x=1')).toBe(
      `/policies/v1/brandau/policies/${CARD_NUMBER_REDACTED}`,
    );
    expect(redactPath('/p/4111%201111%201111%201111/details')).toBe(`/p/${CARD_NUMBER_REDACTED}/details`);
    expect(redactPath('/p/%E0%A4%A/x')).toBe('/p/%E0%A4%A/x');
    expect(redactPath('/products/v1/brandau/plans?planCode=4111111111111111')).toBe('/products/v1/brandau/plans');
  });
});
