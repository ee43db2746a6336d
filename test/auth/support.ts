import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** Cheap argon2 and no brute-force delay, so tests stay fast; production keeps strong defaults. */
export const FAST_AUTH_ENV: Record<string, string> = {
  ARGON2_MEMORY_KIB: '256',
  ARGON2_TIME_COST: '1',
  LOGIN_DELAY_STEP_MS: '0',
};

export function postToken(
  app: FastifyInstance,
  fields: Record<string, string>,
  options: { brand?: string; headers?: Record<string, string>; query?: string; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: `/users/${options.brand ?? 'brandau'}/token${options.query ?? ''}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
    payload: new URLSearchParams(fields).toString(),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

export const partnerLogin = (username: string, password: string): Record<string, string> => ({
  grant_type: 'password',
  client_id: 'API',
  username,
  password,
  customerInterfaceId: '8',
  userTypeId: '4',
});

/** A clock tests can move: `clock.advance(seconds)`. */
export function movableClock(start = Date.now()) {
  let now = start;
  const clock = () => new Date(now);
  return Object.assign(clock, {
    advance(seconds: number) {
      now += seconds * 1000;
    },
  });
}
