import { describe, expect, it } from 'vitest';
import { DurabilityLost, WalSync } from './wal-sync.js';

/** A flush the test finishes by hand, counting how many were started. */
function manualDisk() {
  const started: (() => void)[] = [];
  const failures: ((error: Error) => void)[] = [];
  const flush = () =>
    new Promise<void>((resolve, reject) => {
      started.push(resolve);
      failures.push(reject);
    });
  return {
    flush,
    started,
    finish: (i: number) => started[i]?.(),
    fail: (i: number) => failures[i]?.(new Error('EIO')),
  };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('WalSync (group commit)', () => {
  it('answers only once a flush that began after the commit has finished', async () => {
    const disk = manualDisk();
    const sync = new WalSync(disk.flush);
    sync.noteCommit();
    let done = false;
    const waiting = sync.durable().then(() => (done = true));
    await settle();
    expect(disk.started).toHaveLength(1);
    expect(done).toBe(false);
    disk.finish(0);
    await waiting;
    expect(sync.pending).toBe(false);
  });

  it('one flush covers every commit made before it started', async () => {
    const disk = manualDisk();
    const sync = new WalSync(disk.flush);
    for (let i = 0; i < 20; i++) sync.noteCommit();
    const waits = Array.from({ length: 20 }, () => sync.durable());
    await settle();
    expect(disk.started).toHaveLength(1);
    disk.finish(0);
    await Promise.all(waits);
  });

  it('a commit made while a flush runs waits for the next flush, shared by all such commits', async () => {
    const disk = manualDisk();
    const sync = new WalSync(disk.flush);
    sync.noteCommit();
    const first = sync.durable();
    await settle();
    sync.noteCommit();
    sync.noteCommit();
    let laterDone = 0;
    const later = [sync.durable(), sync.durable()].map((p) => p.then(() => (laterDone += 1)));
    disk.finish(0);
    await first;
    await settle();
    expect(laterDone).toBe(0);
    expect(disk.started).toHaveLength(2);
    disk.finish(1);
    await Promise.all(later);
    expect(disk.started).toHaveLength(2);
  });

  it('with nothing committed, answers at once without touching the disk', async () => {
    const disk = manualDisk();
    const sync = new WalSync(disk.flush);
    await sync.durable();
    expect(disk.started).toHaveLength(0);
  });

  it('after a failed flush, every later call fails too', async () => {
    const disk = manualDisk();
    const sync = new WalSync(disk.flush);
    sync.noteCommit();
    const first = sync.durable();
    await settle();
    disk.fail(0);
    await expect(first).rejects.toBeInstanceOf(DurabilityLost);
    sync.noteCommit();
    await expect(sync.durable()).rejects.toBeInstanceOf(DurabilityLost);
    expect(sync.pending).toBe(true);
    expect(disk.started).toHaveLength(1); // no retry could prove the lost pages are on disk
  });
});
