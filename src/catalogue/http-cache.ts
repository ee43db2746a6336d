import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cachedResponseHeaders, namesEtag, type CachedResponse } from '../http/front-cache/cache-headers.js';
import type { CatalogueSnapshot } from './reader.js';

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

/** Sends a cached response: 304 when If-None-Match names its ETag, else the stored bytes. */
export function sendCached(request: FastifyRequest, reply: FastifyReply, entry: CachedResponse): FastifyReply {
  const notModified = namesEtag(request.headers['if-none-match'], entry.etag);
  // The request id is set again (same value, same place): the list is the front cache's too.
  reply.headers(cachedResponseHeaders(request.id, entry, notModified));
  return notModified ? reply.status(304).send() : reply.send(entry.payload);
}
