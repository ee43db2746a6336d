/** One Notification of the contract's error envelope. */
export interface ApiNotification {
  readonly code: string;
  readonly message: string;
  readonly property?: string;
  readonly value?: unknown;
}

export type ErrorKind = 'auth' | 'validation' | 'conflict' | 'rate_limit' | 'not_found' | 'server' | 'network';

function kindOf(status: number): ErrorKind {
  if (status === 0) return 'network';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'server';
  return 'validation';
}

/** Any answer the SDK does not treat as success, and any failure to get an answer (status 0). */
export class PartnerApiError extends Error {
  readonly kind: ErrorKind;
  constructor(
    readonly status: number,
    readonly errors: readonly ApiNotification[],
    readonly requestId: string | undefined,
    message?: string,
    options?: { cause?: unknown },
  ) {
    super(message ?? errors[0]?.message ?? `HTTP ${status}`, options);
    this.name = 'PartnerApiError';
    this.kind = kindOf(status);
  }

  /** The first Notification's code (e.g. `QUOTE_NOT_FOUND`), if the server sent one. */
  get code(): string | undefined {
    return this.errors[0]?.code;
  }
}

/** Reads the Notifications from the contract's envelope, or from the token endpoint's OAuth error. */
export function notificationsOf(body: unknown): ApiNotification[] {
  if (typeof body !== 'object' || body === null) return [];
  const record = body as Record<string, unknown>;
  const validation = record['validation'] as { errors?: unknown } | undefined;
  if (validation && Array.isArray(validation.errors)) return validation.errors as ApiNotification[];
  if (typeof record['error'] === 'string') {
    const description = record['error_description'];
    return [{ code: record['error'], message: typeof description === 'string' ? description : record['error'] }];
  }
  return [];
}
