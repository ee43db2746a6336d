/**
 * The end of a graceful shutdown, between the drain (readiness failing) and closing the app.
 * Node's `server.close()` destroys every connection without a request in flight at once, and
 * that includes connections accepted a moment ago whose request is still on its way: their
 * clients saw a reset. Here the listener stops accepting first, requests in flight and those
 * arriving on open connections are answered (with `Connection: close`, http/server/lifecycle.ts), and a
 * connection is closed only once it has answered, or stayed idle (nothing read, after a poll phase
 * read what had arrived) for a grace period that stretches with the machine's lag.
 */
import { Server as NetServer, type Socket } from 'node:net';
import type { Server } from 'node:http';

/** How long an idle connection is kept after the listener stopped accepting, for a request already sent. */
export const IDLE_GRACE_MS = 250;
/**
 * Closing the listener resets the connections still in the kernel's accept queue, requests sent
 * and never read. So it closes once the requests in flight are answered and no connection has
 * arrived for this long (clients told 503 `SHUTTING_DOWN` have gone elsewhere), or at the latest
 * after half the `boundMs` given to `stop`.
 */
export const QUIET_MS = 250;
/**
 * On a starved machine clients answer as late as this process runs: QUIET_MS and IDLE_GRACE_MS
 * stretch to this many times the longest lag the shutdown's own timers have seen.
 */
const LAG_FACTOR = 4;
const POLL_MS = 25;

/** A connection with no request in flight: since when, and how many bytes it had read then. */
interface Idle {
  since: number;
  bytesRead: number;
  /** Whether it has carried a request: a fresh connection was opened to send one. */
  served: boolean;
}

/** Connections the shutdown is waiting for, as the hard deadline reports them. */
export interface OpenConnections {
  /** With a request being answered. */
  readonly inFlight: number;
  readonly idle: number;
}

export class ConnectionTracker {
  readonly #busy = new Map<Socket, number>();
  readonly #idle = new Map<Socket, Idle>();
  #lastArrival = 0;
  #lag = 0;

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.#lastArrival = Date.now();
      this.#idle.set(socket, { since: Date.now(), bytesRead: socket.bytesRead, served: false });
      socket.once('close', () => {
        this.#busy.delete(socket);
        this.#idle.delete(socket);
      });
    });
    server.on('request', (req: { socket: Socket }, res: { once(event: 'close', listener: () => void): void }) => {
      const { socket } = req;
      this.#busy.set(socket, (this.#busy.get(socket) ?? 0) + 1);
      this.#idle.delete(socket);
      res.once('close', () => {
        const left = (this.#busy.get(socket) ?? 1) - 1;
        if (left > 0) this.#busy.set(socket, left);
        else {
          this.#busy.delete(socket);
          if (!socket.destroyed)
            this.#idle.set(socket, { since: Date.now(), bytesRead: socket.bytesRead, served: true });
        }
      });
    });
  }

  /** Connections still open. */
  get open(): OpenConnections {
    return { inFlight: this.#busy.size, idle: this.#idle.size };
  }

  /**
   * Stops accepting once arrivals have stopped (QUIET_MS, `boundMs / 2` at most), then closes
   * each connection once it has been idle for `graceMs` (a connection that has not sent its first
   * request yet: `boundMs / 4`); resolves when none is left. Requests keep being answered meanwhile.
   * Both waits stretch with the lag of a starved machine (LAG_FACTOR).
   */
  async stop(boundMs: number, graceMs = IDLE_GRACE_MS): Promise<void> {
    if (this.server.listening) {
      const since = Date.now();
      // Quiet: nothing in flight and no arrival for QUIET_MS, so the loop's turns are short and
      // nothing can slip into the queue between a turn's accepts and the close.
      const quiet = () => this.#busy.size === 0 && Date.now() - this.#lastArrival >= this.#stretched(QUIET_MS);
      while (!quiet() && Date.now() - since < boundMs / 2) await this.#turn();
      // Right after a poll phase, which accepted what the kernel had queued.
      await afterPoll();
      // net's close only: stop accepting, but leave open connections to the loop below
      // (http's close would destroy the idle ones at once, see the top of this file).
      NetServer.prototype.close.call(this.server);
    }
    const stoppedAt = Date.now();
    while (this.#busy.size + this.#idle.size > 0) {
      // Decided after a poll phase: bytes that arrived while this process was not running are read
      // first, so a request on its way counts as arriving, not as an idle connection's silence.
      await afterPoll();
      const now = Date.now();
      for (const [socket, idle] of this.#idle) {
        if (socket.bytesRead !== idle.bytesRead) {
          // Part of a request has arrived (Node emits 'request' once its headers have): not idle.
          Object.assign(idle, { since: now, bytesRead: socket.bytesRead });
          continue;
        }
        const grace = idle.served ? this.#stretched(graceMs) : Math.max(this.#stretched(graceMs), boundMs / 4);
        // Idle for the grace period since the stop: a keep-alive client may be sending right now.
        if (now - Math.max(idle.since, stoppedAt) >= grace) {
          this.#idle.delete(socket);
          socket.destroy();
        }
      }
      if (this.#busy.size + this.#idle.size > 0) await this.#turn();
    }
  }

  /** `ms`, or LAG_FACTOR times the longest lag seen if that is longer. */
  #stretched(ms: number): number {
    return Math.max(ms, LAG_FACTOR * this.#lag);
  }

  /** One polling turn, noting how late this process got to run again. */
  async #turn(): Promise<void> {
    const before = Date.now();
    await sleep(POLL_MS);
    this.#lag = Math.max(this.#lag, Date.now() - before - POLL_MS);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Resolves in the check phase right after a poll phase (accepts and reads done). */
const afterPoll = () => new Promise((resolve) => setImmediate(resolve));
