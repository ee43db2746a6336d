import { connect, type Socket } from 'node:net';
import { scaled } from './time-scale.js';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** The whole text the server sent. */
  readonly raw: string;
  /** How the connection ended: the server closed it (`end`), reset it (`reset`), or it stayed open. */
  readonly ended: 'end' | 'reset' | 'open';
  /** Milliseconds from connecting to the end of the connection (or to the answer, when it stayed open). */
  readonly elapsedMs: number;
}

/** Parses the first HTTP/1.1 answer in `raw` (Content-Length bodies only, as this API sends). */
export function parseAnswer(raw: string): Omit<RawAnswer, 'ended' | 'elapsedMs' | 'raw'> | undefined {
  const split = raw.indexOf('\r\n\r\n');
  if (split === -1) return undefined;
  const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = raw.slice(split + 4, split + 4 + length);
  if (Buffer.byteLength(body) < length) return undefined;
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/**
 * Opens a connection to `port`, lets `script` write to it (as slowly as it likes), and collects
 * what the server sends until it closes the connection or `waitMs` passes.
 */
export function rawExchange(
  port: number,
  script: (socket: Socket) => void | Promise<void>,
  waitMs = scaled(5_000),
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const startedAt = Date.now();
    const socket = connect(port, '127.0.0.1');
    let raw = '';
    let done = false;
    const finish = (ended: RawAnswer['ended']) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const answer = parseAnswer(raw);
      if (!answer && ended !== 'open')
        resolve({ status: 0, headers: {}, body: '', raw, ended, elapsedMs: Date.now() - startedAt });
      else if (!answer) reject(new Error(`no answer within ${waitMs} ms: ${JSON.stringify(raw)}`));
      else resolve({ ...answer, raw, ended, elapsedMs: Date.now() - startedAt });
    };
    const timer = setTimeout(() => finish('open'), waitMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (raw += chunk));
    socket.on('end', () => finish('end'));
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code === 'ECONNRESET' ? 'reset' : 'end'));
    socket.on('close', () => finish('end'));
    socket.on('connect', () => {
      Promise.resolve(script(socket)).catch(() => undefined);
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
