import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { DEMO_KEY_ENCRYPTION_SECRET } from './auth.js';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

const production = { APP_ENV: 'production', PUBLIC_BASE_URL: 'https://api.example.com' };

describe('identity settings', () => {
  it('staging has working defaults, including the documented demo key secret', () => {
    const { auth } = loadConfig({});
    expect(auth).toMatchObject({
      jwtAlgorithm: 'ES256',
      accessTokenTtlSeconds: 3600,
      keyEncryptionSecret: DEMO_KEY_ENCRYPTION_SECRET,
    });
    expect(auth.argon2).toEqual({ memoryKib: 19_456, timeCost: 2 });
    expect(auth.bruteForce).toMatchObject({ userFailureLimit: 10, windowSeconds: 900 });
  });

  it('production refuses a missing or demo KEY_ENCRYPTION_SECRET and names the variable only', () => {
    expect(problems(production).some((p) => p.startsWith('KEY_ENCRYPTION_SECRET'))).toBe(true);
    const demo = problems({ ...production, KEY_ENCRYPTION_SECRET: DEMO_KEY_ENCRYPTION_SECRET });
    expect(demo.some((p) => p.startsWith('KEY_ENCRYPTION_SECRET'))).toBe(true);
    expect(demo.join('\n')).not.toContain(DEMO_KEY_ENCRYPTION_SECRET);
    const own = problems({ ...production, KEY_ENCRYPTION_SECRET: 'an-operator-chosen-secret-of-40-characters!' });
    expect(own.some((p) => p.startsWith('KEY_ENCRYPTION_SECRET'))).toBe(false);
  });

  it('refuses symmetric or unknown algorithms, short secrets and an idle timeout beyond the absolute lifetime', () => {
    expect(problems({ JWT_ALGORITHM: 'HS256' }).some((p) => p.startsWith('JWT_ALGORITHM'))).toBe(true);
    expect(problems({ KEY_ENCRYPTION_SECRET: 'short' }).some((p) => p.startsWith('KEY_ENCRYPTION_SECRET'))).toBe(true);
    expect(
      problems({ REFRESH_TOKEN_IDLE_SECONDS: '7200', REFRESH_TOKEN_TTL_SECONDS: '3600' }).some((p) =>
        p.startsWith('REFRESH_TOKEN_IDLE_SECONDS'),
      ),
    ).toBe(true);
    expect(loadConfig({ JWT_ALGORITHM: 'EdDSA', ACCESS_TOKEN_TTL_SECONDS: '600' }).auth).toMatchObject({
      jwtAlgorithm: 'EdDSA',
      accessTokenTtlSeconds: 600,
    });
  });
});
