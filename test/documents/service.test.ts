import { describe, expect, it } from 'vitest';
import { documentDepsOf } from '../../src/documents/routes.js';
import { ensureTransactionDocuments } from '../../src/documents/service.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { boughtPolicy, NOW } from '../policy-changes/support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

describe(`ensureTransactionDocuments (${DIALECT})`, () => {
  it('callers racing on one transaction keep one document, and every call answers it', async () => {
    const t = getApp();
    const { policyNumber } = await boughtPolicy(t);
    const deps = documentDepsOf(t.context);
    const answers = await Promise.all([1, 2, 3, 4].map(() => ensureTransactionDocuments(deps, policyNumber, 1)));
    const [first] = answers;
    expect(first).toHaveLength(1);
    expect(first![0]).toMatchObject({ sequenceNumber: 1, kind: 'CERTIFICATE', language: 'en' });
    expect(first![0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    for (const answer of answers) expect(answer).toEqual(first);
    expect(await ensureTransactionDocuments(deps, policyNumber, 1)).toEqual(first);
  });

  it('an unknown policy or transaction: POLICY_NOT_FOUND', async () => {
    const t = getApp();
    const { policyNumber } = await boughtPolicy(t);
    const deps = documentDepsOf(t.context);
    await expect(ensureTransactionDocuments(deps, 'NOPE-1', 1)).rejects.toMatchObject({ code: 'POLICY_NOT_FOUND' });
    await expect(ensureTransactionDocuments(deps, policyNumber, 9)).rejects.toMatchObject({ code: 'POLICY_NOT_FOUND' });
  });
});
