import { describe, expect, it } from 'vitest';
import type { Executor } from '../../db/database.js';
import type { Payable } from './area.js';
import { judgeHeldKey } from './held-keys.js';

const LOCKED_AT = '2026-11-27T10:00:00.000Z';
const db = {} as Executor;
const at = (seconds: number) => () => new Date(Date.parse(LOCKED_AT) + seconds * 1000);
type State = 'STARTED' | 'ISSUED' | 'DECLINED';
type Record = Payable<State>;
const area = (record?: Record) => ({
  ofSubject: () => Promise.resolve(record),
  working: ['STARTED', 'ISSUED'] as State[],
});
const started: Record = {
  id: 'p1',
  state: 'STARTED',
  brandCode: 'brandau',
  paymentMethod: 'CARD',
  partnerId: 1,
  amountMinor: 100,
  currency: 'AUD',
  updatedAt: LOCKED_AT,
};
const held = { id: 1, lockedAt: LOCKED_AT, subject: 'record:p1' };

describe('judgeHeldKey', () => {
  it('tells a retry behind a request busy a moment ago to come back in a second, not the recovery grace', async () => {
    for (const record of [undefined, started])
      expect(await judgeHeldKey(area(record), { db, clock: at(0.05) }, 60, held)).toEqual({
        takeOver: false,
        retryAfterSeconds: 1,
      });
  });

  it('waits as long again as the record has been untouched, never past the grace', async () => {
    const verdict = (seconds: number) => judgeHeldKey(area(started), { db, clock: at(seconds) }, 60, held);
    expect(await verdict(8)).toEqual({ takeOver: false, retryAfterSeconds: 8 });
    expect(await verdict(50)).toEqual({ takeOver: false, retryAfterSeconds: 10 });
    expect(await verdict(60)).toEqual({ takeOver: true });
  });

  it('takes over at once when the record has its answer', async () => {
    const declined: Record = { ...started, state: 'DECLINED' };
    expect(await judgeHeldKey(area(declined), { db, clock: at(0) }, 60, held)).toEqual({ takeOver: true });
  });

  it('judges a key that names no record by its claim alone', async () => {
    const { subject: _none, ...unbound } = held;
    const declined: Record = { ...started, state: 'DECLINED' };
    // The area is never asked: the key started nothing (yet).
    expect(await judgeHeldKey(area(declined), { db, clock: at(8) }, 60, unbound)).toEqual({
      takeOver: false,
      retryAfterSeconds: 8,
    });
    expect(await judgeHeldKey(area(declined), { db, clock: at(60) }, 60, unbound)).toEqual({ takeOver: true });
  });
});
