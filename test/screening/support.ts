import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { bearerFor } from '../helpers/auth.js';
import type { Screening } from '../../src/screening/schemas.js';

/** Who answers the screenings of these tests (the canary tests look for these values). */
export const PERSON = {
  firstName: 'Alex',
  surname: 'Canary',
  dateOfBirth: '1984-01-02',
  email: 'alex@example.com',
  phone: '+61 400 000 000',
};

/** One call to a traveller's screening endpoints (brandau unless said). */
export async function call(
  t: TestApp,
  quoteId: string,
  method: 'GET' | 'POST',
  tail = '',
  payload?: object,
  partner: 'A' | 'B' = 'A',
  guid = 'adult-1',
) {
  return t.app.inject({
    method,
    url: `/quotes/v2/brandau/quote/${quoteId}/travellers/${guid}/screening${tail}`,
    headers: await bearerFor(t, 'brandau', partner),
    ...(payload ? { payload } : {}),
  });
}

/** Answers whatever is asked: gates (YES unless `allNo`), travel mode AIR, the given conditions, follow-ups NO. */
export async function walk(t: TestApp, quoteId: string, conditions: string[], allNo = false, guid = 'adult-1') {
  let screening = (await call(t, quoteId, 'POST', '', { authorizedPerson: PERSON }, 'A', guid)).json();
  expect(screening.status).toBe('IN_PROGRESS');
  while (screening.questions.length > 0) {
    const answers = screening.questions.map((q: { id: string; kind: string }) => ({
      questionId: q.id,
      choiceCodes:
        q.kind === 'GATE'
          ? [allNo ? 'NO' : 'YES']
          : q.kind === 'TRAVEL_MODE'
            ? ['AIR']
            : q.kind === 'CONDITIONS'
              ? conditions
              : ['NO'],
    }));
    const res = await call(t, quoteId, 'POST', '/answers', { answers }, 'A', guid);
    expect(res.statusCode).toBe(200);
    screening = res.json();
  }
  const done = await call(t, quoteId, 'POST', '/complete', undefined, 'A', guid);
  expect(done.statusCode).toBe(200);
  return done.json<Screening>();
}
