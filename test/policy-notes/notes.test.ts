import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Operator } from '../../src/operators/model.js';
import { actionsOnSubject } from '../../src/operators/audit-repository.js';
import { getPolicyDetails } from '../../src/policies/service.js';
import { addPolicyNote, checkedNoteText } from '../../src/policy-notes/service.js';
import { addReason, listReasons, retireReason } from '../../src/policy-notes/reasons.js';
import { createTestDatabase, DIALECT, type TestDatabase } from '../helpers/database.js';
import { issue, issueRequest, PARTNER_IDS } from '../policies/fixtures.js';

const support: Operator = { id: 12, username: 'sam', displayName: 'Sam Support', role: 'SUPPORT' };
const readOnly: Operator = { id: 13, username: 'rita', displayName: 'Rita Reader', role: 'READ_ONLY' };
const now = new Date('2026-12-08T03:15:00.000Z');

describe(`policy notes (${DIALECT})`, () => {
  let database: TestDatabase;
  const deps = () => ({ db: database.db, clock: () => now });
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateToLatest(database.db);
  });
  afterAll(async () => {
    await database.destroy();
  });

  const defaultReason = async () => (await listReasons(database.db)).find((r) => r.isDefault)!;

  it('seeds the reasons, one of them the default', async () => {
    const reasons = await listReasons(database.db);
    expect(reasons.map((r) => r.text)).toEqual([
      'Customer contact',
      'Partner request',
      'Payment correction',
      'Referral decision',
      'Complaint',
      'Other',
    ]);
    expect(reasons.filter((r) => r.isDefault).map((r) => r.text)).toEqual(['Customer contact']);
  });

  it('writes a note on the latest transaction with its audit entry; the partner reads it in /details', async () => {
    const policy = await issue(database.db, issueRequest());
    const reason = await defaultReason();
    const note = await addPolicyNote(deps(), support, {
      policyNumber: policy.policyNumber,
      reasonId: reason.id,
      text: '  Customer called about the dates.\r\nNo change.  ',
    });
    expect(note).toMatchObject({
      policyDetailId: policy.policyDetailId,
      userId: 12,
      text: 'Customer called about the dates.\nNo change.',
    });

    const details = await getPolicyDetails(database.db, {
      policyNumber: policy.policyNumber,
      brandCode: 'brandau',
      partnerId: PARTNER_IDS.A,
    });
    expect(details[0]?.notes).toEqual([
      {
        policyNoteId: note.id,
        policyDetailId: policy.policyDetailId,
        noteText: 'Customer called about the dates.\nNo change.',
        userId: 12,
        createdAt: '2026-12-08T03:15:00.000Z',
        createdLocalDateTime: '2026-12-08T14:15:00.000',
        policyNoteReasonId: reason.id,
        policyNoteReason: expect.objectContaining({ reasonText: 'Customer contact', isActive: true, isDefault: true }),
      },
    ]);
    const audit = await actionsOnSubject(database.db, 'policy_detail', String(policy.policyDetailId));
    expect(audit).toEqual([
      expect.objectContaining({
        operatorId: 12,
        action: 'note.add',
        reason: 'Customer contact',
        at: now.toISOString(),
      }),
    ]);
  });

  it('answers notes oldest first, and on the transaction named', async () => {
    const policy = await issue(database.db, issueRequest());
    const reason = await defaultReason();
    for (const text of ['first', 'second'])
      await addPolicyNote(deps(), support, {
        policyNumber: policy.policyNumber,
        sequenceNumber: 1,
        reasonId: reason.id,
        text,
      });
    const [detail] = await getPolicyDetails(database.db, {
      policyNumber: policy.policyNumber,
      brandCode: 'brandau',
      partnerId: PARTNER_IDS.A,
    });
    expect(detail?.notes?.map((n) => n.noteText)).toEqual(['first', 'second']);
    await expect(
      addPolicyNote(deps(), support, {
        policyNumber: policy.policyNumber,
        sequenceNumber: 2,
        reasonId: reason.id,
        text: 'x',
      }),
    ).rejects.toMatchObject({ code: 'POLICY_NOT_FOUND' });
    await expect(
      addPolicyNote(deps(), support, { policyNumber: 'NOPE123', reasonId: reason.id, text: 'x' }),
    ).rejects.toMatchObject({ code: 'POLICY_NOT_FOUND' });
  });

  it('refuses a role without note.add, an inactive reason, and bad text', async () => {
    const policy = await issue(database.db, issueRequest());
    const reason = await defaultReason();
    const input = { policyNumber: policy.policyNumber, reasonId: reason.id, text: 'ok' };
    await expect(addPolicyNote(deps(), readOnly, input)).rejects.toMatchObject({ code: 'OPERATOR_NOT_ALLOWED' });
    const retired = await addReason(database.db, { text: 'Retired reason' }, now.toISOString());
    await retireReason(database.db, retired.id, now.toISOString());
    await expect(addPolicyNote(deps(), support, { ...input, reasonId: retired.id })).rejects.toMatchObject({
      code: 'NOTE_REASON_NOT_USABLE',
    });
    await expect(addPolicyNote(deps(), support, { ...input, reasonId: 99_999 })).rejects.toMatchObject({
      code: 'NOTE_REASON_NOT_USABLE',
    });
    for (const text of ['   ', 'x'.repeat(2001), 'bell\u0007', 'card 4111 1111 1111 1111'])
      await expect(addPolicyNote(deps(), support, { ...input, text })).rejects.toMatchObject({
        code: 'NOTE_TEXT_INVALID',
      });
    expect(checkedNoteText('é'.repeat(2000))).toHaveLength(2000);
    const rows = await database.db
      .selectFrom('policy_note')
      .select('id')
      .where('policy_header_id', '=', policy.policyHeaderId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('writes nothing when the caller’s transaction rolls back', async () => {
    const policy = await issue(database.db, issueRequest());
    const reason = await defaultReason();
    await expect(
      database.db.transaction().execute(async (tx) => {
        await addPolicyNote({ db: tx, clock: () => now }, support, {
          policyNumber: policy.policyNumber,
          reasonId: reason.id,
          text: 'decided',
        });
        throw new Error('the caller fails after');
      }),
    ).rejects.toThrow('the caller fails after');
    expect(await actionsOnSubject(database.db, 'policy_detail', String(policy.policyDetailId))).toEqual([]);
    const rows = await database.db
      .selectFrom('policy_note')
      .select('id')
      .where('policy_header_id', '=', policy.policyHeaderId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('refuses to update or delete a note (append-only on both engines)', async () => {
    const policy = await issue(database.db, issueRequest());
    const note = await addPolicyNote(deps(), support, {
      policyNumber: policy.policyNumber,
      reasonId: (await defaultReason()).id,
      text: 'kept',
    });
    await expect(
      sql`update policy_note set note_text = 'changed' where id = ${note.id}`.execute(database.db),
    ).rejects.toThrow(/append-only/);
    await expect(sql`delete from policy_note where id = ${note.id}`.execute(database.db)).rejects.toThrow(
      /append-only/,
    );
  });

  it('manages the reasons: one default, which stays active', async () => {
    const before = await defaultReason();
    await expect(retireReason(database.db, before.id, now.toISOString())).rejects.toMatchObject({
      code: 'NOTE_REASON_CONFLICT',
    });
    const added = await addReason(database.db, { text: 'Claims enquiry', isDefault: true }, now.toISOString());
    expect(added).toMatchObject({ isDefault: true, isActive: true });
    expect((await defaultReason()).id).toBe(added.id);
    await expect(addReason(database.db, { text: 'Claims enquiry' }, now.toISOString())).rejects.toMatchObject({
      code: 'NOTE_REASON_CONFLICT',
    });
    const retired = await retireReason(database.db, before.id, now.toISOString());
    expect(retired.isActive).toBe(false);
    expect((await listReasons(database.db)).map((r) => r.id)).not.toContain(before.id);
    expect((await listReasons(database.db, { all: true })).map((r) => r.id)).toContain(before.id);
  });
});
