import { describe, expect, it } from 'vitest';
import { containsCardNumber, findCardNumber, luhnValid } from './card-numbers.js';

// Formerly the quotes area's own finder; the one finder keeps its cases (see findCardNumbers for the rules).
describe('card number detection (first match)', () => {
  it('checks Luhn', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('378282246310005')).toBe(true);
  });

  it('finds 13–19 Luhn-valid digits, plain or grouped by spaces or dashes, inside any text', () => {
    for (const text of [
      '4111111111111111',
      '4111 1111 1111 1111',
      '5555-5555-5555-4444',
      'card: 4222222222222 ok',
      '6011000990139424',
    ]) {
      expect(containsCardNumber(text), text).toBe(true);
    }
    for (const text of [
      '4111111111111112',
      '411111111111',
      '41111111111111111111111',
      '+61 2 5550 1234',
      '4111  1111 1111 1111',
      'Ann Lee',
    ]) {
      expect(containsCardNumber(text), text).toBe(false);
    }
  });

  it('names the JSON path of the first string holding one, keys included', () => {
    expect(
      findCardNumber({ input: { policyHolders: [{ firstName: 'Ann' }, { lastName: '4111-1111-1111-1111' }] } }),
    ).toBe('input.policyHolders[1].lastName');
    // A key that is not an identifier is written in brackets, as in findCardNumbers.
    expect(findCardNumber({ input: { '4111111111111111': 1 } })).toBe('input["4111111111111111"]');
    // Whole numbers count too (docs/api-contract.md, "Payments"): a PAN sent as a JSON number is still a PAN.
    expect(findCardNumber({ input: { tripValue: 4111111111111111, planId: 1 } })).toBe('input.tripValue');
    expect(findCardNumber({ input: { tripValue: 4111.5, planId: 1 } })).toBeUndefined();
    expect(findCardNumber('4111111111111111')).toBe('body');
    expect(findCardNumber(null)).toBeUndefined();
  });
});
