import type { OutgoingHttpHeaders } from 'node:http';
import { REQUEST_ID_HEADER } from '../request-id.js';

/** A response serialised once and answered from memory after that (the catalogue's product reads). */
export interface CachedResponse {
  readonly payload: Buffer;
  readonly etag: string;
  readonly maxAgeSeconds: number;
  readonly contentType: string;
}

/** Whether an `If-None-Match` header names `etag` (weak comparison, RFC 9110 §13.1.2). */
export function namesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/**
 * The headers of a stored answer, in the order sent: the one list both Fastify's path
 * (catalogue/http-cache.ts) and the front cache send, so the two answer byte for byte alike.
 * `Cache-Control` is private: every product response is behind a partner's bearer token.
 */
export function cachedResponseHeaders(
  requestId: string,
  entry: CachedResponse,
  notModified: boolean,
): OutgoingHttpHeaders {
  const cacheControl = `private, max-age=${entry.maxAgeSeconds}`;
  if (notModified) return { [REQUEST_ID_HEADER]: requestId, etag: entry.etag, 'cache-control': cacheControl };
  return {
    [REQUEST_ID_HEADER]: requestId,
    etag: entry.etag,
    'cache-control': cacheControl,
    'content-type': entry.contentType,
    'content-length': entry.payload.length,
  };
}
