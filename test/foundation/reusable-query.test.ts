import { describe, expect, it } from 'vitest';
import { reusableQuery } from '../../src/db/reusable-query.js';
import { DIALECT } from '../helpers/database.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';

describe(`reusableQuery (${DIALECT})`, () => {
  const database = useMigratedTestDatabase();
  const insertBrand = reusableQuery(['code', 'name'], (db, v: { code: string; name: string }) =>
    db.insertInto('brand').values({ code: v.code, name: v.name, created_at: '2026-11-23T00:00:00.000Z' }),
  );
  const brandsNamed = reusableQuery(['name'], (db, v: { name: string }) => db.selectFrom('brand').select(['code', 'name', 'created_at']).where('name', '=', v.name).where('code', '<>', 'never').orderBy('code'));

  it('runs with each call’s values, constants of the built query kept, as the builder would', async () => {
    for (const code of ['zz-b', 'zz-a', 'zz-c']) await insertBrand(database.db, { code, name: 'Reusable' });
    const { rows } = await brandsNamed(database.db, { name: 'Reusable' });
    const built = await database.db.selectFrom('brand').select(['code', 'name', 'created_at']).where('name', '=', 'Reusable').orderBy('code').execute();
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
    const broken = reusableQuery(['name', 'unused'], (db, v: { name: string; unused: string }) => db.selectFrom('brand').select('code').where('name', '=', v.name));
    await expect(broken(database.db, { name: 'x', unused: 'y' })).rejects.toThrow(/unused not bound/);
  });
});
