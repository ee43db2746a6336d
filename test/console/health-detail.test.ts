import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { signInAs } from '../helpers/console.js';
import { DIALECT } from '../helpers/database.js';
import { NOW } from '../purchases/support.js';
import { referralIdOf } from '../referrals/support.js';
import { screenedQuote } from '../screening/quote-walk.js';
import { walk } from '../screening/support.js';

// Issue 31: "no health detail is shown to a role that may not see it". A traveller's screening
// referred to an underwriter: the underwriters' referral page names the condition, no other role's does.
describe(`health data in the console (${DIALECT})`, () => {
  const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

  it('shows a referred screening’s conditions to underwriters only', async () => {
    const t = getApp();
    const quote = await screenedQuote(t);
    const screening = await walk(t, quote.id, ['TEST_REFERRED']);
    await quote.refresh();
    const referralId = await referralIdOf(t, quote.id);
    const conditionName = screening.result?.conditions[0]?.name;
    expect(conditionName).toBeTruthy();
    for (const role of ['UNDERWRITER', 'SENIOR_UNDERWRITER'] as const) {
      const page = await (await signInAs(t, role)).get(`/console/referrals/${referralId}`);
      expect(page.statusCode).toBe(200);
      expect(page.body, role).toContain(conditionName);
      expect(page.body).toContain('MEDICAL_REFERRED');
    }
    for (const role of ['SUPPORT', 'READ_ONLY'] as const) {
      const page = await (await signInAs(t, role)).get(`/console/referrals/${referralId}`);
      expect(page.statusCode).toBe(200);
      expect(page.body, role).not.toContain(conditionName);
      // The outcome is no health detail: every role reads why the quote waits.
      expect(page.body).toContain('REFERRED');
    }
  });
});
