import { describe, expect, it } from 'vitest';
import { retryWhileVanishing } from './postgres-dialect.js';

const vanished = (code: string) => Object.assign(new Error('relation "s.t" does not exist'), { code });

describe('retryWhileVanishing', () => {
  it('scans again while a looked-up table or column vanished, then answers', async () => {
    let calls = 0;
    const scan = () => (++calls < 3 ? Promise.reject(vanished(calls === 1 ? '42P01' : '42703')) : Promise.resolve('tables'));
    await expect(retryWhileVanishing(scan, 0)).resolves.toBe('tables');
    expect(calls).toBe(3);
  });

  it('throws any other failure at once', async () => {
    let calls = 0;
    const scan = () => {
      calls++;
      return Promise.reject(vanished('42501'));
    };
    await expect(retryWhileVanishing(scan, 0)).rejects.toMatchObject({ code: '42501' });
    expect(calls).toBe(1);
  });

  it('gives up after five attempts', async () => {
    let calls = 0;
    const scan = () => {
      calls++;
      return Promise.reject(vanished('42P01'));
    };
    await expect(retryWhileVanishing(scan, 0)).rejects.toMatchObject({ code: '42P01' });
    expect(calls).toBe(5);
  });
});
