import { randomBytes, randomFillSync } from 'node:crypto';

/**
 * Random ids and secrets (base64url) from the operating system's CSPRNG, drawn a block at a time:
 * `randomBytes` is a system call per id (5–40 µs on a busy VM, and a purchase takes five: its
 * event ids, its document link key, its Idempotency-Key claim, the sandbox's payment id), where a
 * slice of a block costs well under a microsecond. Node's own `randomUUID` buffers the same way.
 * Every byte is handed out once, and a handed-out range is zeroed in the block.
 */
const BLOCK_BYTES = 4096;
const block = Buffer.alloc(BLOCK_BYTES);
let next = BLOCK_BYTES;

/** `bytes` random bytes as base64url (e.g. 16 → 22 characters, 128 bits). */
export function randomToken(bytes: number): string {
  if (bytes > BLOCK_BYTES / 8) return randomBytes(bytes).toString('base64url');
  return drawn(bytes, (from, to) => block.toString('base64url', from, to));
}

/** `bytes` random bytes (a copy: the block's range is zeroed once drawn). */
export function randomBlockBytes(bytes: number): Uint8Array {
  if (bytes > BLOCK_BYTES / 8) return randomBytes(bytes);
  return drawn(bytes, (from, to) => Uint8Array.prototype.slice.call(block, from, to));
}

function drawn<T>(bytes: number, read: (from: number, to: number) => T): T {
  if (next + bytes > BLOCK_BYTES) {
    randomFillSync(block);
    next = 0;
  }
  const value = read(next, next + bytes);
  block.fill(0, next, next + bytes);
  next += bytes;
  return value;
}
