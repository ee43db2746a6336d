import type { Migration } from 'kysely';
import * as m20261122_0001 from './20261122_0001_brands.js';
import * as m20261122_0500 from './20261122_0500_policies.js';

/** Every migration, by name; names sort in the order they apply. Add new ones at the end. */
export const migrations: Record<string, Migration> = {
  '20261122_0001_brands': m20261122_0001,
  '20261122_0500_policies': m20261122_0500,
};
