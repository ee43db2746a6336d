import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { reusableInsert, reusableQuery } from '../../src/db/reusable-query.js';
import { DIALECT } from '../helpers/database.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';

describe(`reusableQuery (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();
  const insertBrand = reusableQuery(['code', 'name'], (db, v: { code: string; name: string }) =>
    db.insertInto('brand').values({ code: v.code, name: v.name, created_at: '2026-11-23T00:00:00.000Z' }),
  );
  const brandsNamed = reusableQuery(['name'], (db, v: { name: string }) =>
    db
      .selectFrom('brand')
      .select(['code', 'name', 'created_at'])
      .where('name', '=', v.name)
      .where('code', '<>', 'never')
      .orderBy('code'),
  );

  it('runs with each call’s values, constants of the built query kept, as the builder would', async () => {
    for (const code of ['zz-b', 'zz-a', 'zz-c']) await insertBrand(database.db, { code, name: 'Reusable' });
    const { rows } = await brandsNamed(database.db, { name: 'Reusable' });
    const built = await database.db
      .selectFrom('brand')
      .select(['code', 'name', 'created_at'])
      .where('name', '=', 'Reusable')
      .orderBy('code')
      .execute();
    expect(rows).toEqual(built);
    expect(rows.map((r) => r.code)).toEqual(['zz-a', 'zz-b', 'zz-c']);
    expect(rows[0]?.created_at).toBe('2026-11-23T00:00:00.000Z');
    expect((await brandsNamed(database.db, { name: 'nobody' })).rows).toEqual([]);
  });

  it('runs inside a transaction', async () => {
    await database.db.transaction().execute((tx) => insertBrand(tx, { code: 'zz-tx', name: 'In tx' }));
    expect((await brandsNamed(database.db, { name: 'In tx' })).rows.map((r) => r.code)).toEqual(['zz-tx']);
  });

  it('refuses a value the built query does not bind', async () => {
    const broken = reusableQuery(['name', 'unused'], (db, v: { name: string; unused: string }) =>
      db.selectFrom('brand').select('code').where('name', '=', v.name),
    );
    await expect(broken(database.db, { name: 'x', unused: 'y' })).rejects.toThrow(/unused not bound/);
  });

  it('refuses an undefined value (the built query may have left that column out)', async () => {
    await expect(brandsNamed(database.db, { name: undefined as unknown as string })).rejects.toThrow(
      /no value for name/,
    );
  });
});

describe(`reusableInsert (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();
  type BrandValues = { code: string; name: string; created_at: string };
  const insertBrands = reusableInsert(['code', 'name', 'created_at'], (db, rows: BrandValues[]) =>
    db.insertInto('brand').values(rows),
  );
  const read = (prefix: string) =>
    database.db
      .selectFrom('brand')
      .select(['code', 'name', 'created_at'])
      .where('code', 'like', `${prefix}%`)
      .orderBy('code')
      .execute();
  let sequence = 0;

  it('writes the rows the builder writes, for any number of rows (compiled once per count)', async () => {
    const rows = fc.array(
      fc.record({
        name: fc.string({ maxLength: 20 }),
        created_at: fc.constantFrom('2026-01-01T00:00:00.000Z', '2026-11-23T10:00:00.000Z'),
      }),
      { minLength: 1, maxLength: 6 },
    );
    await fc.assert(
      fc.asyncProperty(rows, async (generated) => {
        sequence += 1;
        const [reused, built] = [`ri-${String(sequence)}-a-`, `ri-${String(sequence)}-b-`];
        await insertBrands(
          database.db,
          generated.map((row, i) => ({ code: `${reused}${String(i)}`, ...row })),
        );
        await database.db
          .insertInto('brand')
          .values(generated.map((row, i) => ({ code: `${built}${String(i)}`, ...row })))
          .execute();
        const strip = (prefix: string) => async () =>
          (await read(prefix)).map((row) => ({ ...row, code: row.code.slice(prefix.length) }));
        expect(await strip(reused)()).toEqual(await strip(built)());
      }),
      { numRuns: 40 },
    );
  });

  it('refuses no rows, and a row without a value', async () => {
    await expect(insertBrands(database.db, [])).rejects.toThrow(/no rows/);
    await expect(
      insertBrands(database.db, [{ code: 'ri-x', name: 'x', created_at: undefined as unknown as string }]),
    ).rejects.toThrow(/no value for created_at/);
  });
});
