import { describe, expect, it } from 'vitest';
import { formatPolicyNumber, parsePolicyNumberFormat } from './policy-number.js';

describe('policy number formats', () => {
  it('builds a number from prefix, jurisdiction, year and a padded increment', () => {
    const values = { prefix: 'BAC', jurisdiction: 'AU', year: 2026, increment: 42 };
    expect(formatPolicyNumber('{prefix}{jurisdiction}{yy}{increment:7}', values)).toBe('BACAU260000042');
    expect(formatPolicyNumber('{prefix}-{yyyy}-{increment:8}', values)).toBe('BAC-2026-00000042');
  });

  it('refuses formats outside the grammar, naming the problem', () => {
    expect(() => parsePolicyNumberFormat('{prefix}{increment:3}')).toThrow(/outside 4..12/);
    expect(() => parsePolicyNumberFormat('{increment:7}')).toThrow(/exactly one \{prefix\}/);
    expect(() => parsePolicyNumberFormat('{prefix}{month}{increment:7}')).toThrow(/unexpected '\{month\}/);
    expect(() => parsePolicyNumberFormat('{prefix}ab{increment:7}')).toThrow(/unexpected 'ab/);
  });

  it('refuses an increment that does not fit its width', () => {
    expect(() => formatPolicyNumber('{prefix}{increment:4}', { prefix: 'X', jurisdiction: 'AU', year: 2026, increment: 12345 })).toThrow(/does not fit/);
  });
});
