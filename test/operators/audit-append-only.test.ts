import { describe, expect, it } from 'vitest';
import { recordOperatorAction } from '../../src/operators/audit-repository.js';
import { useMigratedTestDatabase } from '../helpers/migrated-database.js';

const database = useMigratedTestDatabase();

describe('the operators’ audit trail', () => {
  it('refuses UPDATE and DELETE of its rows on this engine (trigger), and keeps them', async () => {
    await recordOperatorAction(database.db, {
      operatorId: 0,
      action: 'operator.create',
      subjectType: 'operator',
      subjectId: '1',
      after: { role: 'SUPPORT' },
      at: '2026-12-05T10:00:00.000Z',
    });
    await expect(database.db.updateTable('operator_action').set({ reason: 'rewritten' }).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(database.db.deleteFrom('operator_action').execute()).rejects.toThrow(/append-only/);
    const rows = await database.db.selectFrom('operator_action').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'operator.create', reason: null, after_json: '{"role":"SUPPORT"}' });
  });
});
