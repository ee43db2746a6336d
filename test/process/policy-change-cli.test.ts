import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { actionsOnSubject } from '../../src/operators/audit-repository.js';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import {
  boughtPolicy,
  call,
  CARDS,
  confirm,
  NOW,
  previewAmendment,
  type ChangeAnswer,
} from '../policy-changes/support.js';
import {
  after,
  BOUND_ENV,
  BOUND_SECONDS,
  cancelAfterAmendment,
  sweepAt,
} from '../policy-changes/refund-bound-support.js';
import type { TestApp } from '../helpers/app.js';
import { scaled } from '../helpers/time-scale.js';

const getApp = useTestApp({ env: BOUND_ENV, clock: () => NOW });

/** The operator command line against the test's database. */
function cliOf(t: TestApp) {
  const env = { ...process.env, ...t.database.env, LOG_LEVEL: 'silent', DEMO_DATA: 'false' };
  return (args: string[]) =>
    new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'src/cli.ts', 'policy-changes', ...args],
        { env },
        (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
      );
    });
}

describe(`policy-changes operator commands (${DIALECT})`, () => {
  it(
    'attention lists a change an operator must settle; resolve releases the policy for the next change',
    async () => {
      const t = getApp();
      const { policyNumber, input } = await boughtPolicy(t);
      const first = (
        await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-20' })
      ).json<ChangeAnswer>();
      // A refund refused part-way (several cards) is rare to stage: the state is set as the refund would leave it.
      await t.context.db
        .updateTable('policy_change')
        .set({ state: 'ATTENTION', decline_reason: 'REFUND_DECLINED' })
        .where('public_id', '=', first.id!)
        .execute();
      const second = (
        await previewAmendment(t, policyNumber, { ...input, returnDate: '2026-12-21' })
      ).json<ChangeAnswer>();
      const held = await confirm(t, policyNumber, 'amendments', second.id!, { key: 'cli-held' });
      expect(held.statusCode).toBe(409);

      const cli = cliOf(t);
      const listed = await cli(['attention']);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(first.id!);
      expect(listed.stdout).toContain('REFUND_DECLINED');
      expect((await cli(['resolve', first.id!, '--reason', 'Refunded by bank transfer'])).code).toBe(0);
      expect(await actionsOnSubject(t.context.db, 'policy_change', first.id!)).toMatchObject([
        { operatorId: 0, action: 'change.resolve', after: { state: 'RESOLVED' }, reason: 'Refunded by bank transfer' },
      ]);
      expect((await cli(['resolve', first.id!])).code).toBe(1); // nothing left to resolve
      const again = await confirm(t, policyNumber, 'amendments', second.id!, { key: 'cli-free' });
      expect(again.statusCode, again.body).toBe(200);
    },
    scaled(60_000),
  );

  it(
    'a refund ended part-way by a lasting outage: attention lists what was and was not refunded; resolve settles it',
    async () => {
      const t = getApp();
      const ended = await cancelAfterAmendment(t, CARDS.refundGatewayError, 'cli-bound');
      expect((await sweepAt(t, after(BOUND_SECONDS + 1))).outcomes).toEqual({ ATTENTION: 1 });
      const cli = cliOf(t);
      const listed = await cli(['attention']);
      expect(listed.code).toBe(0);
      const [header, ...rows] = listed.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('\t'));
      const row = Object.fromEntries(
        (header ?? []).map((name, i) => [name, rows.find((r) => r[0] === ended.cancellationId)?.[i]]),
      );
      expect(row).toMatchObject({
        kind: 'CANCELLATION',
        refunded_minor: String(ended.amendmentMinor),
        outstanding_minor: String(ended.refundMinor - ended.amendmentMinor),
        booked_sequence: '3',
        reason: 'REFUND_GATEWAY_UNAVAILABLE',
      });
      expect(row.refunded_to).toMatch(new RegExp(`^[^,]+:${ended.amendmentMinor}$`));
      expect((await cli(['resolve', ended.cancellationId])).code).toBe(0);
      const path = `/policies/v1/brandau/policies/${ended.policyNumber}/cancellations/${ended.cancellationId}`;
      // Settled by an operator; its transaction stands (the policy is cancelled).
      expect((await call(t, 'GET', path)).json<ChangeAnswer>().status).toBe('APPLIED');
      expect((await cli(['attention'])).stdout).not.toContain(ended.cancellationId);
    },
    scaled(60_000),
  );
});
