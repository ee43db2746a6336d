import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedResponse, CatalogueSnapshot } from './reader.js';

/**
 * Product responses are serialised once per catalogue version and key, then answered from
 * memory. The ETag is a hash of the bytes, so it survives an import that changed nothing here.
 */
export function cached(snapshot: CatalogueSnapshot, key: string, build: () => Omit<CachedResponse, 'etag'>): CachedResponse {
  let entry = snapshot.responses.get(key);
  if (!entry) {
    const built = build();
    entry = { ...built, etag: `"${createHash('sha256').update(built.payload).digest('base64url').slice(0, 27)}"` };
    snapshot.responses.set(key, entry);
  }
  return entry;
}

export function json(body: unknown, maxAgeSeconds: number): Omit<CachedResponse, 'etag'> {
  return { payload: Buffer.from(JSON.stringify(body)), maxAgeSeconds, contentType: 'application/json; charset=utf-8' };
}

/** Whether an `If-None-Match` header names `etag` (weak comparison, RFC 9110 §13.1.2). */
export function namesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** `Cache-Control` of a stored answer; private: every product response is behind a partner's bearer token. */
export function cacheControlOf(entry: CachedResponse): string {
  return `private, max-age=${entry.maxAgeSeconds}`;
}

/** Sends a cached response: 304 when If-None-Match names its ETag, else the stored bytes. */
export function sendCached(request: FastifyRequest, reply: FastifyReply, entry: CachedResponse): FastifyReply {
  reply.header('etag', entry.etag).header('cache-control', cacheControlOf(entry));
  if (namesEtag(request.headers['if-none-match'], entry.etag)) return reply.status(304).send();
  return reply.type(entry.contentType).send(entry.payload);
}
