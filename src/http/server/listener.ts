/**
 * The end of a graceful shutdown, between the drain (readiness failing) and closing the app.
 * Node's `server.close()` destroys every connection without a request in flight at once, and
 * that includes connections accepted a moment ago whose request is still on its way: their
 * clients saw a reset. Here the listener stops accepting first, requests in flight and those
 * arriving on open connections are answered (with `Connection: close`, http/server/lifecycle.ts), and a
 * connection is closed only once it has stayed idle for a grace period, or has answered.
 */
import { Server as NetServer, type Socket } from 'node:net';
import type { Server } from 'node:http';

/** How long an idle connection is kept after the listener stopped accepting, for a request already sent. */
export const IDLE_GRACE_MS = 250;
/**
 * Closing the listener resets the connections still in the kernel's accept queue, requests sent
 * and never read. So it closes once the requests in flight are answered and no connection has
 * arrived for this long (clients told 503 `SHUTTING_DOWN` have gone elsewhere), or at the latest
 * after the `quietBoundMs` given to `stop`.
 */
export const QUIET_MS = 250;
const POLL_MS = 25;

export class ConnectionTracker {
  readonly #busy = new Map<Socket, number>();
  readonly #idleSince = new Map<Socket, number>();
  #lastArrival = 0;

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.#lastArrival = Date.now();
      this.#idleSince.set(socket, Date.now());
      socket.once('close', () => {
        this.#busy.delete(socket);
        this.#idleSince.delete(socket);
      });
    });
    server.on('request', (req: { socket: Socket }, res: { once(event: 'close', listener: () => void): void }) => {
      const { socket } = req;
      this.#busy.set(socket, (this.#busy.get(socket) ?? 0) + 1);
      this.#idleSince.delete(socket);
      res.once('close', () => {
        const left = (this.#busy.get(socket) ?? 1) - 1;
        if (left > 0) this.#busy.set(socket, left);
        else {
          this.#busy.delete(socket);
          if (!socket.destroyed) this.#idleSince.set(socket, Date.now());
        }
      });
    });
  }

  /** Connections still open. */
  get open(): number {
    return this.#busy.size + this.#idleSince.size;
  }

  /**
   * Stops accepting once arrivals have stopped (QUIET_MS, `quietBoundMs` at most), then closes
   * each connection once it has been idle for `graceMs`; resolves when none is left. Requests keep
   * being answered meanwhile.
   */
  async stop(quietBoundMs: number, graceMs = IDLE_GRACE_MS): Promise<void> {
    if (this.server.listening) {
      const since = Date.now();
      // Quiet: nothing in flight and no arrival for QUIET_MS, so the loop's turns are short and
      // nothing can slip into the queue between a turn's accepts and the close.
      const quiet = () => this.#busy.size === 0 && Date.now() - this.#lastArrival >= QUIET_MS;
      while (!quiet() && Date.now() - since < quietBoundMs) await sleep(POLL_MS);
      // Right after a poll phase, which accepted what the kernel had queued.
      await new Promise((resolve) => setImmediate(resolve));
      // net's close only: stop accepting, but leave open connections to the loop below
      // (http's close would destroy the idle ones at once, see the top of this file).
      NetServer.prototype.close.call(this.server);
    }
    const stoppedAt = Date.now();
    while (this.open > 0) {
      const now = Date.now();
      for (const [socket, since] of this.#idleSince) {
        // Idle for the grace period since the stop: a keep-alive client may be sending right now.
        if (now - Math.max(since, stoppedAt) >= graceMs) {
          this.#idleSince.delete(socket);
          socket.destroy();
        }
      }
      if (this.open > 0) await sleep(POLL_MS);
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
