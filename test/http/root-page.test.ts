import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';

describe('the root URL', () => {
  const getApp = useTestApp();

  it('is a short HTML page pointing to the rendered document and the OpenAPI document; other unknown paths stay JSON 404', async () => {
    const { app } = getApp();
    const root = await app.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(200);
    expect(root.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(root.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/);
    expect(root.body).toContain('<a href="docs">');
    expect(root.body).toContain('<a href="openapi.json">');
    expect(root.body).not.toContain('<script');
    for (const target of ['/docs', '/openapi.json']) {
      expect((await app.inject({ method: 'GET', url: target })).statusCode, target).toBeLessThan(400);
    }

    const unknown = await app.inject({ method: 'GET', url: '/quotes/v2/nowhere' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('application/json');
    expect(unknown.json()).toMatchObject({ validation: { isValid: false } });
  });
});
