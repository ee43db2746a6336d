/** One write of a group: the group's items in, each item's answer out (same order). */
export type GroupWrite<T, R> = (group: readonly T[]) => Promise<readonly R[]>;

/**
 * Writes asked one at a time, written in groups: the first is written at once, those asked while a
 * write runs go together in the next one (one statement for many lanes' rows). Each caller
 * resolves with its own item's answer once its group is written, so a caller still waits for its
 * own row, as without grouping. A group that fails is written again item by item: one item's
 * defect fails only its own caller.
 */
export function groupedWrites<T, R>(write: GroupWrite<T, R>): (item: T) => Promise<R> {
  interface Awaited {
    readonly item: T;
    readonly resolve: (answer: R) => void;
    readonly reject: (error: unknown) => void;
  }
  let pending: Awaited[] = [];
  let writing = false;

  const writeGroup = async (group: readonly Awaited[]): Promise<void> => {
    try {
      const answers = await write(group.map((w) => w.item));
      group.forEach((w, i) => w.resolve(answers[i] as R));
    } catch (error) {
      if (group.length === 1) return (group[0] as Awaited).reject(error);
      for (const w of group) await writeGroup([w]);
    }
  };

  const flush = async () => {
    writing = true;
    while (pending.length > 0) {
      const group = pending;
      pending = [];
      await writeGroup(group);
    }
    writing = false;
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      pending.push({ item, resolve, reject });
      if (!writing) void flush();
    });
}
