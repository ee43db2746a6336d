import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

import type { TrustedProxies } from '../config/deployment.js';

/**
 * The client's address as Fastify's `request.ip` gives it with the same `trustProxy`: the socket's,
 * or the nearest untrusted address of `X-Forwarded-For`. For answers served outside Fastify (the
 * front cache), so every log line names the same client.
 */
export function clientAddressOf(trusted: TrustedProxies): (req: IncomingMessage) => string | undefined {
  if (trusted === false) return (req) => req.socket.remoteAddress;
  const trust = trustOf(trusted);
  return (req) => (req.socket.remoteAddress === undefined ? undefined : proxyAddr(req, trust));
}

/** Whether the proxy at `address`, `hop` steps from the server, is believed. */
const trustOf = (trusted: number | readonly string[]) =>
  typeof trusted === 'number' ? (_address: string, hop: number) => hop < trusted : proxyAddr.compile([...trusted]);

/** Fastify's `trustProxy` option for the same setting. */
export const fastifyTrustProxy = (trusted: TrustedProxies) => (trusted === false ? false : trustOf(trusted));
