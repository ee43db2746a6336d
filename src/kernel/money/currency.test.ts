import { describe, expect, it } from 'vitest';
import { amountFormat, currencyFacts } from './currency.js';

describe('currency facts', () => {
  it('reads symbol, name and minor digits from the runtime, once per code', () => {
    expect(currencyFacts('AUD')).toEqual({
      code: 'AUD',
      symbol: '$',
      description: 'Australian Dollar',
      minorDigits: 2,
    });
    expect(currencyFacts('JPY')).toMatchObject({ symbol: '¥', minorDigits: 0 });
    expect(currencyFacts('BHD').minorDigits).toBe(3);
    expect(currencyFacts('EUR')).toBe(currencyFacts('EUR'));
    expect(Object.isFrozen(currencyFacts('EUR'))).toBe(true);
  });

  it('falls back to the code and two digits for a code the runtime cannot read', () => {
    expect(currencyFacts('not a code')).toEqual({
      code: 'not a code',
      symbol: 'not a code',
      description: 'not a code',
      minorDigits: 2,
    });
  });

  it('formats amounts with exactly the digits asked for', () => {
    expect(amountFormat(2).format(1234.5)).toBe('1,234.50');
    expect(amountFormat(0).format(1234.5)).toBe('1,235');
    expect(amountFormat(2)).toBe(amountFormat(2));
  });
});
