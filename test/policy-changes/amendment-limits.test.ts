import { beforeEach, describe, expect, it } from 'vitest';
import { useSecondApp, useTestApp, type TestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { boughtPolicy, NOW, previewAmendment, type ChangeAnswer } from './support.js';

/** The suite's clock: policies are bought at NOW (the demo trip runs 10–23 December), then it moves on. */
let now = NOW;
const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => now });
// Tokens are cached per app and expire: each later time has its own second app (same database and
// clock), which signs its partner in then.
const seconds = [useSecondApp(getApp), useSecondApp(getApp), useSecondApp(getApp)];
const at = (instant: string, second: number): TestApp => {
  now = new Date(instant);
  const app = seconds[second];
  if (!app) throw new Error(`no second app ${second}`);
  return { ...getApp(), app: app() };
};

beforeEach(() => {
  now = NOW;
});

const codesOf = (answer: ChangeAnswer) => answer.validation.errors.map((e) => `${e.code} ${e.property ?? ''}`);

describe(`policy changes: what an amendment may still do (${DIALECT})`, () => {
  it('a repeated guid after departure is refused: no traveller added, no birth date changed', async () => {
    const { policyNumber, input } = await boughtPolicy(getApp());
    // 15 December, 11:00 in Sydney: the trip is under way.
    const t = at('2026-12-15T00:00:00Z', 0);
    const [first, ...others] = input.policyHolders;
    for (const holders of [
      [first, ...others, { ...first, firstName: 'Grace', lastName: 'Hopper' }],
      [{ ...first, dateOfBirth: '1995-01-01' }, ...others, first],
    ]) {
      const res = await previewAmendment(t, policyNumber, { ...input, policyHolders: holders });
      expect(res.statusCode, res.body).toBe(200);
      const answer = res.json<ChangeAnswer>();
      expect(answer.validation.isValid, res.body).toBe(false);
      expect(codesOf(answer)).toContain(`DUPLICATE_GUID input.policyHolders[${holders.length - 1}].guid`);
      expect(answer.id).toBeUndefined();
    }
  });

  it('after the cover ended no amendment is taken, not even an extension over the gap', async () => {
    const { policyNumber, input } = await boughtPolicy(getApp());
    // 26 December in Sydney: the cover ended on the 23rd.
    const t = at('2026-12-26T00:00:00Z', 1);
    const res = await previewAmendment(t, policyNumber, { ...input, returnDate: '2027-01-05' });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<ChangeAnswer>();
    expect(answer.validation.isValid, res.body).toBe(false);
    expect(answer.validation.errors).toEqual([
      expect.objectContaining({
        code: 'COVER_ENDED',
        property: 'input.returnDate',
        tokens: { coverEndDate: '2026-12-23' },
      }),
    ]);
    expect(answer.id).toBeUndefined();
  });

  it('while the cover runs after departure the return date may still be extended', async () => {
    const { policyNumber, input } = await boughtPolicy(getApp());
    // 23 December, the last day of cover.
    const t = at('2026-12-23T00:00:00Z', 2);
    const res = await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-30' });
    const answer = res.json<ChangeAnswer>();
    expect(answer.validation, res.body).toEqual({ isValid: true, errors: [] });
    expect(answer.status).toBe('PREVIEW');
  });
});
