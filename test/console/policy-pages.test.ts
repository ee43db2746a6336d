import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertDocument } from '../../src/documents/repository.js';
import { useTestApp } from '../helpers/app.js';
import { TEST_PARTNERS } from '../helpers/auth.js';
import { csrfOf, signInAs, type ConsoleVisitor } from '../helpers/console.js';
import { DIALECT } from '../helpers/database.js';
import type { IssuedPolicy } from '../helpers/issued-policy.js';
import { headersFor, issue, issueRequest, testPartnerId } from '../policies/fixtures.js';

// Issue 31: the operators' policy search and policy page, through the console (inject).
describe(`console policy pages (${DIALECT})`, () => {
  const t = useTestApp();
  let policy: IssuedPolicy;
  let support: ConsoleVisitor;
  const documentId = randomUUID();
  beforeAll(async () => {
    const partnerId = await testPartnerId(t(), 'brandau', 'A');
    const request = issueRequest({ partnerId, bookingReference: `BK-${randomUUID().slice(0, 8)}` });
    const base = request.travellers[0]!;
    const unique = `Zed${randomUUID().slice(0, 6)}`;
    policy = await issue(t().context.db, {
      ...request,
      travellers: [{ ...base, surname: unique, emailAddress: `${unique}@Example.com` }, ...request.travellers.slice(1)],
    });
    await insertDocument(t().context.db, {
      documentId,
      policyHeaderId: policy.policyHeaderId,
      sequenceNumber: 1,
      kind: 'CERTIFICATE',
      language: 'en',
      fileName: `${policy.policyNumber}-1.pdf`,
      content: new TextEncoder().encode('%PDF-1.7 test'),
      sha256: '0'.repeat(64),
      createdAt: '2026-11-22T21:53:10.000Z',
    });
    support = await signInAs(t(), 'SUPPORT');
  });

  const policyPath = () => `/console/policies/${encodeURIComponent(policy.policyNumber)}`;

  it('searches each way, with the search in the link', async () => {
    const details = await t()
      .context.db.selectFrom('policy_traveller')
      .select(['surname', 'first_name', 'email_address'])
      .where('policy_detail_id', '=', policy.policyDetailId)
      .where('is_primary', '=', 1)
      .executeTakeFirstOrThrow();
    const header = await t()
      .context.db.selectFrom('policy_header')
      .select('booking_reference')
      .where('id', '=', policy.policyHeaderId)
      .executeTakeFirstOrThrow();
    const searches: Record<string, string>[] = [
      { by: 'policyNumber', q: policy.policyNumber },
      { by: 'traveller', q: details.surname.slice(0, 6).toUpperCase() },
      { by: 'traveller', q: details.surname.toLowerCase(), firstName: details.first_name.slice(0, 2) },
      { by: 'email', q: details.email_address!.toLowerCase() },
      { by: 'bookingReference', q: header.booking_reference! },
      { by: 'partnerCode', q: TEST_PARTNERS.A },
    ];
    for (const search of searches) {
      const response = await support.get(`/console/policies?${new URLSearchParams(search).toString()}`);
      expect(response.statusCode, JSON.stringify(search)).toBe(200);
      expect(response.body, JSON.stringify(search)).toContain(`href="${policyPath()}"`);
    }
    const none = await support.get('/console/policies?by=email&q=nobody%40example.com');
    expect(none.body).toContain('No policy matches.');
    const form = await support.get('/console/policies');
    expect(form.body).toContain('<form method="get" action="/console/policies"');
    expect(form.body).toContain('<label for="q">');
  });

  it('shows the policy: transactions, amounts, documents, e-mails, events, and the note form', async () => {
    const response = await support.get(policyPath());
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('no-store');
    const page = response.body;
    expect(page).toContain(`<h1>Policy ${policy.policyNumber}</h1>`);
    expect(page).toContain('1. Purchase');
    expect(page).toMatch(/\$\d+\.\d\d/);
    for (const heading of [
      'Transactions',
      'Add a note',
      'Documents',
      'E-mails',
      'Partner events and webhook deliveries',
    ])
      expect(page).toContain(`>${heading}</h2>`);
    expect(page).toContain(`href="${policyPath()}/documents/${documentId}"`);
    expect(page).toMatch(/<option value="\d+" selected>Customer contact<\/option>/);
    expect(page).not.toContain('Medical screening');
    expect(page).not.toContain('TAMIS');
  });

  it('shows screening conditions to an underwriter only', async () => {
    const underwriter = await signInAs(t(), 'UNDERWRITER');
    expect((await underwriter.get(policyPath())).body).toContain('Medical screening');
    const reader = await signInAs(t(), 'READ_ONLY');
    const page = (await reader.get(policyPath())).body;
    expect(page).not.toContain('Medical screening');
    // A role that may not add notes gets no form.
    expect(page).not.toContain('Add a note');
  });

  it('opens a document inline, never stored', async () => {
    const response = await support.get(`${policyPath()}/documents/${documentId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toMatch(/^inline; filename="/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toBe('%PDF-1.7 test');
    expect((await support.get(`${policyPath()}/documents/${randomUUID()}`)).statusCode).toBe(404);
  });

  it('adds a note (303 back); the partner reads it in /details and the page lists it', async () => {
    const page = (await support.get(policyPath())).body;
    const reasonId = /<option value="(\d+)" selected>Customer contact/.exec(page)![1]!;
    const response = await support.post(
      `${policyPath()}/notes`,
      { sequenceNumber: '1', reasonId, text: 'Customer <b>called</b> about dates.' },
      csrfOf(page),
    );
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`${policyPath()}#transaction-1`);
    const details = await t().app.inject({
      method: 'GET',
      url: `/policies/v1/brandau/policies/${policy.policyNumber}/details`,
      headers: await headersFor(t(), 'brandau', 'A'),
    });
    const [purchase] = details.json<{ notes: { noteText: string; policyNoteReason: { reasonText: string } }[] }[]>();
    expect(purchase!.notes).toEqual([
      expect.objectContaining({
        noteText: 'Customer <b>called</b> about dates.',
        policyNoteReason: expect.objectContaining({ reasonText: 'Customer contact' }),
      }),
    ]);
    const after = (await support.get(policyPath())).body;
    expect(after).toContain('Customer &lt;b&gt;called&lt;/b&gt; about dates.');
  });

  it('refuses a bad note with the reason, keeping what was typed', async () => {
    const page = (await support.get(policyPath())).body;
    const reasonId = /<option value="(\d+)" selected>Customer contact/.exec(page)![1]!;
    const tooLong = await support.post(
      `${policyPath()}/notes`,
      { sequenceNumber: '1', reasonId, text: `Typed ${'x'.repeat(2001)}` },
      csrfOf(page),
    );
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain('A note holds at most 2000 characters.');
    expect(tooLong.body).toContain('Typed xxx');
    // A card number never comes back, nor is kept (the app refuses it before the console's handler).
    const card = await support.post(
      `${policyPath()}/notes`,
      { sequenceNumber: '1', reasonId, text: 'pay with 4111 1111 1111 1111' },
      csrfOf(page),
    );
    expect(card.statusCode).not.toBe(303);
    expect(card.body).not.toContain('4111');
    const kept = await t()
      .context.db.selectFrom('policy_note')
      .select('note_text')
      .where('policy_header_id', '=', policy.policyHeaderId)
      .execute();
    expect(kept.map((n) => n.note_text).join(' ')).not.toMatch(/4111|Typed/);
  });

  it('refuses a READ_ONLY operator (403) and a POST without its CSRF token', async () => {
    const reader = await signInAs(t(), 'READ_ONLY');
    const refused = await reader.post(`${policyPath()}/notes`, { reasonId: '1', text: 'no' });
    expect(refused.statusCode).toBe(403);
    const noToken = await support.post(`${policyPath()}/notes`, { reasonId: '1', text: 'no' }, false);
    expect(noToken.statusCode).toBe(403);
    expect(noToken.body).toContain('Form refused');
    const notes = await t()
      .context.db.selectFrom('policy_note')
      .select('note_text')
      .where('policy_header_id', '=', policy.policyHeaderId)
      .execute();
    expect(notes.map((n) => n.note_text)).not.toContain('no');
  });

  it('answers 404 for an unknown policy', async () => {
    expect((await support.get('/console/policies/NOPE0000')).statusCode).toBe(404);
  });

  it('support resends the documents (one new e-mail, audited); a reader has no button', async () => {
    const db = t().context.db;
    const before = await db
      .selectFrom('outbox_message')
      .select('message_key')
      .where('kind', '=', 'policy-documents')
      .execute();
    const page = await support.get(policyPath());
    expect(page.body).toContain('Resend to the primary traveller');
    const resent = await support.post(`${policyPath()}/resend`, { reason: 'Customer lost the e-mail' });
    expect(resent.statusCode).toBe(303);
    expect(resent.headers.location).toBe(`${policyPath()}?resent=1`);
    const after = await db
      .selectFrom('outbox_message')
      .select('message_key')
      .where('kind', '=', 'policy-documents')
      .execute();
    expect(after.length).toBe(before.length + 1);
    const audit = await db
      .selectFrom('operator_action')
      .select(['action', 'reason'])
      .where('subject_id', '=', policy.policyNumber)
      .where('action', '=', 'document.resend')
      .execute();
    expect(audit).toEqual([{ action: 'document.resend', reason: 'Customer lost the e-mail' }]);
    const reader = await signInAs(t(), 'READ_ONLY');
    expect((await reader.get(policyPath())).body).not.toContain('Resend to the primary traveller');
    expect((await reader.post(`${policyPath()}/resend`, {})).statusCode).toBe(403);
  });
});
