import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { validatorCompiler } from '../validation.js';
import { emptyBodyAsObject } from './empty-body.js';
import { CancellationConfirmRequest } from '../../policy-changes/schemas.js';

describe('an optional confirm body', () => {
  it('takes no body, {} and a clientInfo; without the hook Fastify refuses a missing body', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler());
    const schema = { body: CancellationConfirmRequest };
    app.post('/with', { schema, preValidation: emptyBodyAsObject }, (request) => ({ body: request.body }));
    app.post('/without', { schema }, (request) => ({ body: request.body }));
    try {
      const none = await app.inject({ method: 'POST', url: '/with' });
      expect([none.statusCode, none.json()]).toEqual([200, { body: {} }]);
      const empty = await app.inject({ method: 'POST', url: '/with', payload: {} });
      expect([empty.statusCode, empty.json()]).toEqual([200, { body: {} }]);
      const info = { clientInfo: { ipAddress: '203.0.113.7' } };
      const some = await app.inject({ method: 'POST', url: '/with', payload: info });
      expect([some.statusCode, some.json()]).toEqual([200, { body: info }]);
      const wrong = await app.inject({ method: 'POST', url: '/with', payload: { clientInfo: 'x' } });
      expect(wrong.statusCode).toBe(400);
      expect((await app.inject({ method: 'POST', url: '/without' })).statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });
});
