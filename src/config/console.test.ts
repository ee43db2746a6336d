import { describe, expect, it } from 'vitest';
import { consoleConfigFrom, consoleConfigProblems } from './console.js';

const env = { CONSOLE_IDLE_MINUTES: 30, CONSOLE_SESSION_HOURS: 10 };

describe('the console settings', () => {
  it('require a session secret of its own in production, and make one per process elsewhere', () => {
    expect(consoleConfigProblems(env, true)).toEqual([expect.stringMatching(/^CONSOLE_SESSION_SECRET:/)]);
    expect(consoleConfigProblems({ ...env, CONSOLE_SESSION_SECRET: 'x'.repeat(32) }, true)).toEqual([]);
    expect(consoleConfigProblems(env, false)).toEqual([]);
    const [a, b] = [consoleConfigFrom(env, false), consoleConfigFrom(env, false)];
    expect(a.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(a.sessionSecret).not.toBe(b.sessionSecret);
  });
});
