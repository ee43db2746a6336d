import { describe, expect, it } from 'vitest';
import { phoneNumberIn } from './phone.js';

describe('phoneNumberIn', () => {
  it('finds the number, not a remark in brackets after it', () => {
    expect(phoneNumberIn('+61 2 8000 1000 (24 hours, reverse charges accepted)')).toEqual({
      before: '',
      number: '+61 2 8000 1000',
      dial: '+61280001000',
      after: ' (24 hours, reverse charges accepted)',
    });
  });

  it('keeps an area code in brackets and words before the number', () => {
    expect(phoneNumberIn('Call (02) 8000-1000 any time')).toMatchObject({
      before: 'Call ',
      number: '(02) 8000-1000',
      dial: '0280001000',
    });
  });

  it('answers undefined for text with no number', () => {
    expect(phoneNumberIn('Open 24 hours')).toBeUndefined();
  });
});
