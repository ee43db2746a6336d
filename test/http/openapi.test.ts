import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';

describe('OpenAPI document', () => {
  // The committed copy is generated with this public URL (see `npm run openapi:write`).
  const t = useTestApp({ env: { PUBLIC_BASE_URL: 'http://localhost:3000' } });

  const fetchDocument = async () => {
    const res = await t().app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    return res.json<{ openapi: string; paths: Record<string, unknown> }>();
  };

  it('is OpenAPI 3.1 and describes the operations endpoints', async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/health', '/ready', '/metrics']));
  });

  it('is rendered at /docs', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger-ui');
  });

  it('matches the committed docs/openapi.json (run `npm run openapi:write` after changing a route)', async () => {
    const committed = JSON.parse(readFileSync('docs/openapi.json', 'utf8')) as unknown;
    expect(await fetchDocument()).toEqual(committed);
  });
});
