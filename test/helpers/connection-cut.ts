import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/**
 * A database connection cut at a crash point of the money flow, in process (`AppContext.crashHook`),
 * on either engine. Throwing there what pg throws when the server's connection is cut is what a cut
 * right after that step does to the request: the step's commit (or gateway call) happened, and the
 * next statement fails; a cut during a commit whose answer was lost looks exactly so, and one before
 * the commit is the previous step's crash point. The request fails as a real cut fails it (503
 * DATABASE_UNAVAILABLE through the one error handler), and the Idempotency-Key hooks then release
 * the key on a database that answers again, as the pool's next connection does after a cut.
 */
export function connectionCut(): Error {
  return Object.assign(new Error('Connection terminated unexpectedly (test cut)'), { code: 'ECONNRESET' });
}

/**
 * The steps at which coming requests are cut, in order, each once; `hook` is the app's `crashHook`.
 * `cut` is what a cut does there: by default the in-process cut above; on PostgreSQL through a TCP
 * proxy, the proxy's own (test/helpers/tcp-proxy.ts).
 */
export class CutSchedule {
  #pending: string[] = [];

  constructor(
    private readonly cut: () => void = () => {
      throw connectionCut();
    },
  ) {}

  readonly hook = (step: string): void => {
    if (this.#pending[0] !== step) return;
    this.#pending.shift();
    this.cut();
  };

  arm(steps: readonly string[]): void {
    this.#pending = [...steps];
  }

  /** The cuts not reached (a retry that answered from the record passes fewer steps). */
  disarm(): string[] {
    const left = this.#pending;
    this.#pending = [];
    return left;
  }
}

/** Sandbox payment and challenge ids, UUIDs (quotes, changes, guids): a run's own identifiers. */
const RUN_IDS = /sbx_(?:pay|3ds)_[A-Za-z0-9_-]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Fields whose values are a run's own rows (database ids) or secrets (a document link's guid). */
const RUN_FIELDS = new Set([
  'policyHeaderId',
  'policyDetailId',
  'travellerId',
  'dependentId',
  'policyDocumentAccessGuid',
]);

/**
 * An answer's body with its run's identifiers named by their order of first appearance (`<id1>`,
 * `<id2>`…; `policyNumber`, when given, `<policy>`; a row's id `<travellerId1>`…), so two runs of
 * one operation compare equal exactly when they answered the same, the same id in the same places.
 */
export function normalised(body: string, policyNumber?: string): unknown {
  const names = new Map<string, string>();
  const nameOf = (value: string, kind: string) => {
    const seen = `${kind}:${value}`;
    const name = names.get(seen) ?? `<${kind}${[...names.keys()].filter((k) => k.startsWith(`${kind}:`)).length + 1}>`;
    names.set(seen, name);
    return name;
  };
  let text = policyNumber === undefined ? body : body.split(policyNumber).join('<policy>');
  text = text.replace(RUN_IDS, (id) => nameOf(id, 'id'));
  return JSON.parse(text, (key, value: unknown) =>
    RUN_FIELDS.has(key) && (typeof value === 'number' || typeof value === 'string')
      ? nameOf(String(value), key)
      : value,
  ) as unknown;
}

/**
 * Sends `send` until an answer is not a cut: every earlier answer must be the cut's 503
 * `DATABASE_UNAVAILABLE`. At most `cuts + 1` requests; the last answer is returned.
 */
export async function retriedThroughCuts(
  cuts: number,
  send: () => Promise<LightMyRequestResponse>,
  between?: () => Promise<void>,
): Promise<{ answer: LightMyRequestResponse; cut: number }> {
  for (let cut = 0; ; cut += 1) {
    const answer = await send();
    if (answer.statusCode !== 503 || cut === cuts) return { answer, cut };
    expect(answer.json<{ validation: { errors: { code: string }[] } }>().validation.errors[0]?.code).toBe(
      'DATABASE_UNAVAILABLE',
    );
    await between?.();
  }
}
