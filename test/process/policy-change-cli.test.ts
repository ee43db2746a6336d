import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import { boughtPolicy, confirm, NOW, previewAmendment, type ChangeAnswer } from '../policy-changes/support.js';
import { scaled } from '../helpers/time-scale.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

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

      const env = { ...process.env, ...t.database.env, LOG_LEVEL: 'silent', DEMO_DATA: 'false' };
      const cli = (args: string[]) =>
        new Promise<{ code: number; stdout: string }>((resolve) => {
          execFile(
            process.execPath,
            ['--import', 'tsx', 'src/cli.ts', 'policy-changes', ...args],
            { env },
            (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
          );
        });
      const listed = await cli(['attention']);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(first.id!);
      expect(listed.stdout).toContain('REFUND_DECLINED');
      expect((await cli(['resolve', first.id!])).code).toBe(0);
      expect((await cli(['resolve', first.id!])).code).toBe(1); // nothing left to resolve
      const again = await confirm(t, policyNumber, 'amendments', second.id!, { key: 'cli-free' });
      expect(again.statusCode, again.body).toBe(200);
    },
    scaled(60_000),
  );
});
