import { describe, expect, it, vi } from 'vitest';
import { scaled } from '../../test/helpers/time-scale.js';
import { BatchedLogDestination, type WriteFn } from './destination.js';

/** Until the retry timer has had its turns: a busy machine may run the test's timer first. */
const retried = { timeout: scaled(2_000), interval: 5 };

const turn = () => new Promise((resolve) => setImmediate(resolve));
const eagain = () => Object.assign(new Error('EAGAIN: resource temporarily unavailable, write'), { code: 'EAGAIN' });

/** A reader that takes at most `room` bytes per write, and none while `stalled`. */
function reader(room = Infinity) {
  const chunks: Buffer[] = [];
  const state = {
    writes: 0,
    stalled: false,
    room,
    // Decoded whole: a partial write may split a character.
    get text() {
      return Buffer.concat(chunks).toString();
    },
  };
  const write: WriteFn = (data) => {
    if (state.stalled) throw eagain();
    const bytes = Buffer.from(data);
    const end = Math.min(bytes.length, state.room);
    state.writes++;
    chunks.push(bytes.subarray(0, end));
    return end;
  };
  return { state, write };
}

describe('BatchedLogDestination', () => {
  it("writes a turn's lines in one write once the turn's callbacks have run", async () => {
    const { state, write } = reader();
    const log = new BatchedLogDestination(write);
    log.write('a\n');
    log.write('b\n');
    expect(state.writes).toBe(0);
    await turn();
    expect(state).toMatchObject({ writes: 1, text: 'a\nb\n' });
    log.write('c\n');
    await turn();
    expect(state).toMatchObject({ writes: 2, text: 'a\nb\nc\n' });
  });

  it('writes at once when a turn logs a batch worth', () => {
    const { state, write } = reader();
    const log = new BatchedLogDestination(write, { batchBytes: 4 });
    log.write('ab\n');
    expect(state.writes).toBe(0);
    log.write('cd\n');
    expect(state).toMatchObject({ writes: 1, text: 'ab\ncd\n' });
  });

  it('finishes a partial write and waits out a full pipe, in order, losing nothing', async () => {
    const { state, write } = reader(3);
    const log = new BatchedLogDestination(write, { retryMs: 1 });
    log.write('line one €€\n');
    log.flushSync();
    expect(state.text).toBe('line one €€\n');
    state.stalled = true;
    log.write('two\n');
    log.flushSync();
    log.write('three\n');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(state.text).toBe('line one €€\n');
    state.stalled = false;
    await vi.waitFor(() => expect(state.text).toBe('line one €€\ntwo\nthree\n'), retried);
  });

  it('drops lines past the backlog bound rather than blocking, and says how many', async () => {
    const { state, write } = reader();
    const log = new BatchedLogDestination(write, { maxBacklogBytes: 8, retryMs: 1 });
    state.stalled = true;
    for (const line of ['1234\n', '5678\n', 'lost\n', 'lost\n']) log.write(line);
    expect(log.dropped).toBe(2);
    log.flushSync();
    state.stalled = false;
    await vi.waitFor(() => {
      const [first, second, notice] = state.text.split('\n');
      expect([first, second]).toEqual(['1234', '5678']);
      expect(JSON.parse(notice!)).toMatchObject({ level: 40, msg: '2 log lines dropped: the log reader stalled' });
    }, retried);
  });

  it('writes everything pending before the process exits', () => {
    const { state, write } = reader(2);
    const log = new BatchedLogDestination(write);
    log.write('last words\n');
    log.flushBeforeExit();
    expect(state.text).toBe('last words\n');
  });

  it('is a pino destination: logger.flush writes what is pending', async () => {
    const { pino } = await import('pino');
    const { state, write } = reader();
    const logger = pino({ base: undefined, timestamp: false }, new BatchedLogDestination(write));
    logger.info('hello');
    logger.flush();
    expect(JSON.parse(state.text)).toEqual({ level: 30, msg: 'hello' });
  });
});
