import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';

interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  requestBody?: unknown;
}

/** A concrete URL for a templated path: a real brand, plausible ids. */
const concrete = (path: string) =>
  path
    .replace('{brandCode}', 'brandau')
    .replace(/\{(brandId|insuranceContractId)\}/, '1')
    .replace(/\{\w+\}/g, 'X1');

describe('OpenAPI security declarations match the bearer guard', () => {
  const t = useTestApp({ env: { PUBLIC_BASE_URL: 'http://localhost:3000' } });

  const operations = async () => {
    const document = (await t().app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    return Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
    );
  };

  it('every operation the guard refuses without a token declares bearerAuth, and no other does', async () => {
    const all = await operations();
    expect(all.length).toBeGreaterThan(15);
    const mismatches: string[] = [];
    for (const { path, method, operation } of all) {
      const response = await t().app.inject({
        method: method as 'GET',
        url: concrete(path),
        ...(operation.requestBody !== undefined ? { payload: {} } : {}),
      });
      const guarded = response.statusCode === 401 && response.json().validation?.errors?.[0]?.code === 'TOKEN_REQUIRED';
      const declared = operation.security?.some((requirement) => 'bearerAuth' in requirement) ?? false;
      if (guarded !== declared) mismatches.push(`${method} ${path}: guarded ${guarded}, declared ${declared}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('the token endpoint and the discovery metadata declare an empty security requirement', async () => {
    const all = await operations();
    for (const id of ['issueToken', 'getAuthorizationServerMetadata']) {
      expect(all.find((o) => o.operation.operationId === id)?.operation.security).toEqual([]);
    }
  });
});
