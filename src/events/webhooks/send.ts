import { redactCardNumbers } from '../../kernel/card-numbers/card-numbers.js';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { AddressRefused, guardedLookup, refusedUrl, type AddressRules, type Resolver } from './address-guard.js';

/**
 * A receiver's text as it may be kept and shown: control characters (NUL among them, which
 * PostgreSQL text refuses) become U+FFFD; tabs and line ends stay.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '\ufffd');
}

/** At most this much of a receiver's answer is read (and kept as the attempt's excerpt). */
export const MAX_EXCERPT_BYTES = 1024;

export const USER_AGENT = 'PartnerAPI-Webhooks/1.0 (+Standard Webhooks)';

export interface SendOptions {
  readonly rules: AddressRules;
  readonly resolve: Resolver;
  /** For the whole attempt: connection, answer and its first KiB. */
  readonly timeoutMs: number;
  /** Ends the attempt at once (`ABORTED`): the process is stopping (db/outbox/worker.ts). */
  readonly signal?: AbortSignal;
}

/** What one POST came to: a status (any, 3xx included: redirects are not followed) or a failure code. */
export interface SendResult {
  readonly statusCode?: number;
  readonly excerpt?: string;
  /** `ADDRESS_REFUSED`, `TIMEOUT`, `ABORTED`, or the connection's error code (`ECONNREFUSED` …, `CONNECTION` otherwise). */
  readonly failure?: string;
  readonly latencyMs: number;
}

/**
 * POSTs `body` to `url` once. The host's addresses are checked by the guarded lookup the socket
 * connects with (an IP literal before connecting); no redirect is followed; only the first
 * MAX_EXCERPT_BYTES of the answer are read, then the connection is dropped.
 */
export function postOnce(
  url: URL,
  body: string,
  headers: Readonly<Record<string, string>>,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const refused = refusedUrl(url, options.rules);
  if (refused !== undefined) return Promise.resolve({ failure: 'ADDRESS_REFUSED', latencyMs: 0 });
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve({ ...result, latencyMs: latency() });
    };
    const request = send(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': USER_AGENT,
      },
      // A fresh connection per attempt: a pooled socket could reach an address checked long ago.
      agent: false,
      lookup: guardedLookup(options.rules, options.resolve),
    });
    const timer = setTimeout(() => finish({ failure: 'TIMEOUT' }), options.timeoutMs);
    const aborted = () => finish({ failure: 'ABORTED' });
    if (options.signal?.aborted) aborted();
    options.signal?.addEventListener('abort', aborted, { once: true });
    request.once('close', () => options.signal?.removeEventListener('abort', aborted));
    request.on('response', (response: IncomingMessage) => {
      const statusCode = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        // Kept and shown to the partner: a card number the receiver echoed is not.
        const excerpt = redactCardNumbers(
          printable(Buffer.concat(chunks).subarray(0, MAX_EXCERPT_BYTES).toString('utf8')),
        );
        finish({ statusCode, ...(excerpt === '' ? {} : { excerpt }) });
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= MAX_EXCERPT_BYTES) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.on('error', (error: Error & { code?: unknown }) => {
      if (error instanceof AddressRefused) return finish({ failure: 'ADDRESS_REFUSED' });
      const code = typeof error.code === 'string' && /^E[A-Z_]+$/.test(error.code) ? error.code : 'CONNECTION';
      finish({ failure: code });
    });
    request.end(body);
  });
}
