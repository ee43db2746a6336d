import { describe, expect, it } from 'vitest';
import { groupedWrites } from './grouped-writes.js';

describe('groupedWrites', () => {
  it('writes the first at once and those asked meanwhile together, each caller with its own answer', async () => {
    const groups: number[][] = [];
    const write = groupedWrites(async (group: readonly number[]) => {
      groups.push([...group]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return group.map((n) => n * 10);
    });
    const answers = await Promise.all([1, 2, 3, 4].map((n) => write(n)));
    expect(answers).toEqual([10, 20, 30, 40]);
    expect(groups).toEqual([[1], [2, 3, 4]]);
  });

  it("writes a failed group item by item: one item's defect fails only its caller", async () => {
    const write = groupedWrites((group: readonly number[]) =>
      group.includes(3) ? Promise.reject(new Error(`refused ${group.join(',')}`)) : Promise.resolve([...group]),
    );
    const settled = await Promise.allSettled([1, 2, 3, 4].map((n) => write(n)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((settled[2] as PromiseRejectedResult).reason).toEqual(new Error('refused 3'));
  });
});
