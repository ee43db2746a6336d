import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { DIALECT } from '../helpers/database.js';
import {
  boughtPolicy,
  confirm,
  detailedTrip,
  NOW,
  previewCancellation,
  type ChangeAnswer,
} from '../policy-changes/support.js';
import { pdfText } from './pdf-text.js';
import { documentsOf, fetchDocument } from './support.js';

const getApp = useTestApp({ env: { DEMO_DATA: 'true' }, clock: () => NOW });

// Travellers named in every script the API accepts: Latin with diacritics, Greek, Cyrillic, Chinese,
// Japanese, Korean, Arabic and Hebrew (right to left), Devanagari and Thai (shaped).
const NAMES: [string, string][] = [
  ['Łukasz', 'Dvořák'],
  ['Ελένη', 'Παπαδοπούλου'],
  ['Ольга', 'Петрова'],
  ['小龍', '李'],
  ['太郎', '山田'],
  ['민준', '김'],
  ['محمد', 'علي'],
  ['דוד', 'כהן'],
  ['अर्जुन', 'शर्मा'],
  ['สมชาย', 'ใจดี'],
];

/** Bought with the first two adults and the dependent renamed from `names`. */
async function policyNamed(t: ReturnType<typeof getApp>, names: [string, string][]) {
  const holders = detailedTrip(0).policyHolders.map((holder, i) => ({
    ...holder,
    firstName: names[i]![0],
    lastName: names[i]![1],
  }));
  return boughtPolicy(t, { input: { policyHolders: holders } });
}

/** Every name printed as it was sent, no letter as `?`, the file under 150 KB. */
function expectNamesIn(text: string, bytes: Buffer, names: [string, string][]) {
  for (const [first, last] of names) expect(text).toContain(`${first} ${last}`);
  expect(text).not.toContain('?');
  expect(bytes.length).toBeLessThan(150 * 1024);
}

describe(`every script in the policy documents (${DIALECT})`, () => {
  it('certificates name each traveller exactly as sent, in any script; a cancellation notice too', async () => {
    const t = getApp();
    for (let i = 0; i < NAMES.length; i += 3) {
      const names = [0, 1, 2].map((k) => NAMES[(i + k) % NAMES.length]!);
      const { policyNumber } = await policyNamed(t, names);
      const [certificate] = await documentsOf(t, policyNumber);
      const pdf = (await fetchDocument(t, policyNumber, certificate!.documentId)).rawPayload;
      expectNamesIn(await pdfText(pdf), pdf, names);
    }

    const names = [NAMES[3]!, NAMES[6]!, NAMES[8]!];
    const { policyNumber } = await policyNamed(t, names);
    const cancel = (await previewCancellation(t, policyNumber, { reasonCode: 'TRIP_CANCELLED' })).json<ChangeAnswer>();
    const cancelled = await confirm(t, policyNumber, 'cancellations', cancel.id!, {
      key: `scripts-cancel-${policyNumber}`,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const documents = await documentsOf(t, policyNumber);
    const notice = documents.find((d) => d.kind === 'CANCELLATION_NOTICE')!;
    const pdf = (await fetchDocument(t, policyNumber, notice.documentId)).rawPayload;
    const text = await pdfText(pdf);
    expect(text).toContain('Cancellation notice');
    expectNamesIn(text, pdf, names);
  });
});
