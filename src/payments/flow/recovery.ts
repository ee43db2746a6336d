import type { MoneyDeps } from './area.js';

/**
 * Recovery's lease, shared by purchases and policy changes: of the records a process left in
 * flight (listed untouched for the grace), each recovering process leases one at a time by a
 * compare and set on its state and `updated_at`, so of several processes (every server sweeps)
 * exactly one settles it and the others skip it. One bad record never stops the run: `failed`
 * hears of it and the run goes on.
 */
export interface Tally<S extends string> {
  /** Records leased, by their state before recovery. */
  readonly examined: Partial<Record<S, number>>;
  /** Records by their state after recovery. */
  readonly outcomes: Partial<Record<S, number>>;
}

export const emptyTally = <S extends string>(): Tally<S> => ({ examined: {}, outcomes: {} });

const count = <S extends string>(map: Partial<Record<S, number>>, state: S) => (map[state] = (map[state] ?? 0) + 1);

export async function settleLeased<S extends string, L extends { readonly state: S }, T>(
  deps: MoneyDeps,
  tally: Tally<S>,
  listed: readonly L[],
  steps: {
    /** The compare and set; undefined when another process took it (or it moved on) since the listing. */
    readonly lease: (listed: L, at: string) => Promise<T | undefined>;
    /** Takes the leased record as far as it goes from its state. */
    readonly finish: (leased: T) => Promise<{ readonly state: S }>;
    readonly failed: (listed: L, error: unknown) => void;
  },
): Promise<void> {
  for (const item of listed) {
    try {
      const leased = await steps.lease(item, deps.clock().toISOString());
      if (leased === undefined) continue;
      count(tally.examined, item.state);
      count(tally.outcomes, (await steps.finish(leased)).state);
    } catch (error) {
      steps.failed(item, error);
    }
  }
}
