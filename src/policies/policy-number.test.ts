import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkPlanNumberFormat,
  counterKeyOf,
  formatPolicyNumber,
  InvalidPolicyNumberFormat,
  numberTemplateOf,
  parsePolicyNumberFormat,
  policyDetailNumber,
} from './policy-number.js';

const parts = { prefix: 'TI', country: 'au', year: 2026 };

describe('policy number format', () => {
  it('renders prefix, country, year and a zero-padded counter', () => {
    const format = parsePolicyNumberFormat('{prefix}{country}{yy}{seq:7}');
    expect(formatPolicyNumber(format, parts, 42)).toBe('TIAU260000042');
    expect(formatPolicyNumber(parsePolicyNumberFormat('{prefix}-{yyyy}/{seq:4}'), parts, 7)).toBe('TI-2026/0007');
    expect(formatPolicyNumber(parsePolicyNumberFormat('X{seq:1}'), parts, 1)).toBe('X1');
  });

  it('writes a counter wider than its width in full', () => {
    expect(formatPolicyNumber(parsePolicyNumberFormat('{prefix}{seq:3}'), parts, 12345)).toBe('TI12345');
  });

  it('pads two-digit years', () => {
    expect(formatPolicyNumber(parsePolicyNumberFormat('{yy}{seq:2}'), { ...parts, year: 2005 }, 3)).toBe('0503');
  });

  it.each([
    '{prefix}',
    '{seq:7}{seq:7}',
    '{seq:0}',
    '{seq:13}',
    '{sequence}',
    '{prefix{seq:3}',
    'A}{seq:3}',
    '{seq:3}{',
    '{seq:x}',
  ])('rejects %s', (source) => {
    expect(() => parsePolicyNumberFormat(source)).toThrow(InvalidPolicyNumberFormat);
  });

  it('keys the counter only on the parts the format shows', () => {
    expect(counterKeyOf(parsePolicyNumberFormat('{prefix}{country}{yy}{seq:7}'), parts)).toEqual({
      prefix: 'TI',
      country: 'AU',
      year: 2026,
    });
    expect(counterKeyOf(parsePolicyNumberFormat('{prefix}{seq:7}'), parts)).toEqual({
      prefix: 'TI',
      country: '',
      year: 0,
    });
    expect(counterKeyOf(parsePolicyNumberFormat('{country}{yyyy}{seq:7}'), parts)).toEqual({
      prefix: '',
      country: 'AU',
      year: 2026,
    });
  });

  it('gives distinct numbers to distinct counter values', () => {
    const format = parsePolicyNumberFormat('{prefix}{country}{yy}{seq:5}');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 10_000_000 }), (a, b) => {
        const same = formatPolicyNumber(format, parts, a) === formatPolicyNumber(format, parts, b);
        expect(same).toBe(a === b);
      }),
    );
  });

  it('refuses a counter below 1', () => {
    expect(() => formatPolicyNumber(parsePolicyNumberFormat('{seq:3}'), parts, 0)).toThrow(RangeError);
  });

  it('numbers details with a hyphen and the sequence', () => {
    expect(policyDetailNumber('TIAU260000042', 1)).toBe('TIAU260000042-1');
  });

  it("reads the catalogue's spelling of the parts: {jurisdiction} and {increment:N}", () => {
    const format = parsePolicyNumberFormat('{prefix}{jurisdiction}{yy}{increment:7}');
    expect(formatPolicyNumber(format, { prefix: 'BAC', country: 'au', year: 2026 }, 42)).toBe('BACAU260000042');
    expect(
      formatPolicyNumber(
        parsePolicyNumberFormat('{prefix}-{yyyy}-{increment:8}'),
        { prefix: 'DAC', country: 'AU', year: 2026 },
        7,
      ),
    ).toBe('DAC-2026-00000007');
  });

  it('splits into the text before the counter, its width and the text after, as formatPolicyNumber renders it', () => {
    expect(numberTemplateOf(parsePolicyNumberFormat('{prefix}{country}{yy}{seq:7}'), parts)).toEqual({
      before: 'TIAU26',
      width: 7,
      after: '',
    });
    expect(numberTemplateOf(parsePolicyNumberFormat('P-{seq:3}/{yyyy}-{jurisdiction}'), parts)).toEqual({
      before: 'P-',
      width: 3,
      after: '/2026-AU',
    });
    const piece = fc.constantFrom('{prefix}', '{country}', '{yy}', '{yyyy}', '-', '/', 'X9');
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 4 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(piece, { maxLength: 4 }),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        (head, width, tail, n) => {
          const format = parsePolicyNumberFormat(`${head.join('')}{seq:${width}}${tail.join('')}`);
          const template = numberTemplateOf(format, parts);
          // What the SQL does: lpad to the greater of the width and the digits (lpad alone would cut).
          const digits = String(n);
          expect(
            template.before + '0'.repeat(Math.max(0, template.width - digits.length)) + digits + template.after,
          ).toBe(formatPolicyNumber(format, parts, n));
        },
      ),
    );
  });
});

describe('plan formats as the catalogue checks them', () => {
  it('builds a number from prefix, jurisdiction, year and a padded increment', () => {
    const values = { prefix: 'BAC', country: 'AU', year: 2026 };
    expect(formatPolicyNumber(parsePolicyNumberFormat('{prefix}{jurisdiction}{yy}{increment:7}'), values, 42)).toBe(
      'BACAU260000042',
    );
    expect(formatPolicyNumber(parsePolicyNumberFormat('{prefix}-{yyyy}-{increment:8}'), values, 42)).toBe(
      'BAC-2026-00000042',
    );
  });

  it('refuses formats outside the grammar, naming the problem', () => {
    expect(() => checkPlanNumberFormat('{prefix}{increment:3}')).toThrow(/outside 4..12/);
    expect(() => checkPlanNumberFormat('{increment:7}')).toThrow(/exactly one \{prefix\}/);
    expect(() => checkPlanNumberFormat('{prefix}{month}{increment:7}')).toThrow(/unexpected '\{month\}/);
    expect(() => checkPlanNumberFormat('{prefix}ab{increment:7}')).toThrow(/unexpected 'ab/);
  });

  it('admits only formats that number policies', () => {
    const part = fc.constantFrom(
      '{prefix}',
      '{jurisdiction}',
      '{yy}',
      '{yyyy}',
      '{increment:4}',
      '{increment:12}',
      '{increment:3}',
      '{country}',
      '{seq:7}',
      '-',
      'A9',
      'ab',
      '{',
      '}',
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 6 }), (parts) => {
        const source = parts.join('');
        let admitted = true;
        try {
          checkPlanNumberFormat(source);
        } catch {
          admitted = false;
        }
        if (admitted) expect(() => parsePolicyNumberFormat(source)).not.toThrow();
      }),
    );
  });
});
