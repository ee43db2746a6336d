import { DomainError } from '../kernel/errors.js';
import type { PageLook } from '../kernel/html/look.js';
import type { RenderedPage } from '../kernel/html/page.js';
import { AnswerRefused, ScreeningIncomplete, ScreeningNotInProgress, ScreeningNotStarted } from './errors.js';
import { FORM_STEPS, formToken, isFormToken, type FormStep } from './form-token.js';
import type { ScreeningLinkDeps, ScreeningLinkOpening } from './link-service.js';
import type { AuthorizedPerson } from './model.js';
import { choiceId, confirmPage, messagePage, questionsPage, resultPage, whoPage, type FieldProblem } from './page.js';
import { type PageFrame, type WhoForm } from './page.js';
import { PAGE_WORDS } from './page-words.js';
import {
  answerScreening,
  completeScreening,
  readScreening,
  screenableTraveller,
  startScreening,
  type ScreeningView,
} from './service.js';

/**
 * What the hosted page does (no HTTP here): reads the screening to show its step, and turns a
 * posted form into the SAME service calls the API makes (start, answer, complete), so the page and
 * the API give one result. Nothing changes on a GET; a POST without its step's token changes nothing.
 */

type Open = Extract<ScreeningLinkOpening, { state: 'open' }>;

/** A page to show with its status, or "see the page again" (303 to the same URL) after a change. */
export type PageAnswer = { readonly status: number; readonly page: RenderedPage } | { readonly redirect: true };

/** The posted form: every field as sent (a repeated field is a list). */
export type FormBody = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Where the partner's page gets the traveller back: the quote, the traveller and the status only. */
export function backHrefOf(opened: Open, status: string): string {
  const url = new URL(opened.link.returnUrl);
  url.searchParams.set('quoteId', opened.link.quoteId);
  url.searchParams.set('travellerGuid', opened.link.travellerGuid);
  url.searchParams.set('screeningStatus', status);
  return url.href;
}

const at = (o: Open) =>
  [o.actor, o.link.brandCode as Parameters<typeof readScreening>[2], o.link.quoteId, o.link.travellerGuid] as const;

async function currentScreening(deps: ScreeningLinkDeps, o: Open): Promise<ScreeningView | undefined> {
  try {
    return await readScreening(deps, ...at(o));
  } catch (error) {
    if (error instanceof ScreeningNotStarted) return undefined;
    throw error;
  }
}

interface Page {
  readonly deps: ScreeningLinkDeps;
  readonly opened: Open;
  readonly look: PageLook;
}

const frameOf = (p: Page, status: string): PageFrame => ({
  language: p.opened.language,
  look: p.look,
  backHref: backHrefOf(p.opened, status),
});
const tokenOf = (p: Page, step: FormStep) => formToken(p.deps.secret, p.opened.link.id, step);

/** The page of the screening's present step. */
export async function showPage(p: Page): Promise<PageAnswer> {
  return guarded(p, async () => {
    const view = await currentScreening(p.deps, p.opened);
    const status = view?.status ?? 'NOT_STARTED';
    const frame = frameOf(p, status);
    if (!view || view.status === 'STALE') {
      const { traveller } = await screenableTraveller(p.deps, ...at(p.opened));
      return { status: 200, page: whoPage(frame, tokenOf(p, 'who'), { person: traveller }, [], status === 'STALE') };
    }
    if (view.status === 'COMPLETED') return { status: 200, page: resultPage(frame, view) };
    if (view.questions.length === 0) return { status: 200, page: confirmPage(frame, tokenOf(p, 'complete')) };
    return { status: 200, page: questionsPage(frame, tokenOf(p, 'answers'), view.questions, {}, []) };
  });
}

/** A posted form: its token checked first (403, nothing stored), then the step's service call. */
export async function postPage(p: Page, body: FormBody): Promise<PageAnswer> {
  const words = PAGE_WORDS[p.opened.language];
  const step = FORM_STEPS.find((s) => s === body.step);
  if (!step || !isFormToken(p.deps.secret, p.opened.link.id, step, body.csrf))
    return { status: 403, page: messagePage(frameOf(p, 'NOT_STARTED'), words.refusedTitle, words.refusedText) };
  return guarded(p, async () => {
    if (step === 'who') return postWho(p, body);
    if (step === 'answers') return postAnswers(p, body);
    try {
      await completeScreening(p.deps, ...at(p.opened));
    } catch (error) {
      // Questions left, or the screening moved on: the page shows where it stands.
      if (!(error instanceof ScreeningIncomplete || error instanceof ScreeningNotInProgress)) throw error;
    }
    return { redirect: true };
  });
}

const one = (value: FormBody[string]) => (typeof value === 'string' ? value.trim() : undefined);
const LIMITS = { firstName: 100, surname: 100, dateOfBirth: 10, email: 254, phone: 50 } as const;

async function postWho(p: Page, body: FormBody): Promise<PageAnswer> {
  const words = PAGE_WORDS[p.opened.language];
  const who = one(body.who);
  const person: Record<string, string> = {};
  const problems: FieldProblem[] = [];
  if (who !== 'TRAVELLER' && who !== 'OTHER') problems.push({ fieldId: 'who-TRAVELLER', message: words.problems.who });
  for (const [name, max] of Object.entries(LIMITS)) {
    const value = one(body[name]) ?? '';
    person[name] = value;
    if (value === '' || value.length > max)
      problems.push({
        fieldId: `person-${name}`,
        message: `${words.person[name as keyof typeof LIMITS]}: ${words.problems.required}`,
      });
    else if (name === 'dateOfBirth' && !/^\d{4}-\d{2}-\d{2}$/.test(value))
      problems.push({ fieldId: 'person-dateOfBirth', message: words.problems.date });
  }
  if (problems.length > 0) {
    const values: WhoForm = { ...(who ? { who } : {}), person };
    return { status: 400, page: whoPage(frameOf(p, 'NOT_STARTED'), tokenOf(p, 'who'), values, problems, false) };
  }
  await startScreening(p.deps, ...at(p.opened), person as unknown as AuthorizedPerson);
  return { redirect: true };
}

async function postAnswers(p: Page, body: FormBody): Promise<PageAnswer> {
  const words = PAGE_WORDS[p.opened.language];
  const view = await currentScreening(p.deps, p.opened);
  if (view?.status !== 'IN_PROGRESS') return { redirect: true };
  const chosen: Record<string, readonly string[]> = {};
  const problems: FieldProblem[] = [];
  view.questions.forEach((q, qi) => {
    const sent = body[`q:${q.id}`];
    const codes = sent === undefined ? [] : typeof sent === 'string' ? [sent] : [...sent];
    chosen[q.id] = codes;
    if (codes.length === 0) problems.push({ fieldId: choiceId(qi, 0), message: `${q.text} ${words.problems.answer}` });
    else if (!q.multiple && codes.length > 1)
      problems.push({ fieldId: choiceId(qi, 0), message: `${q.text} ${words.problems.oneAnswer}` });
  });
  const again = (status: number) => ({
    status,
    page: questionsPage(frameOf(p, 'IN_PROGRESS'), tokenOf(p, 'answers'), view.questions, chosen, problems),
  });
  if (problems.length > 0) return again(400);
  const answers = view.questions.map((q) => ({ questionId: q.id, choiceCodes: chosen[q.id] ?? [] }));
  try {
    await answerScreening(p.deps, ...at(p.opened), answers);
  } catch (error) {
    if (!(error instanceof AnswerRefused)) throw error;
    // Named by its question (never the answer): shown at that question's fieldset.
    const qi = Math.max(
      0,
      view.questions.findIndex((q) => `answers.${q.id}` === error.property),
    );
    const text = error.code === 'ANSWER_NOT_ASKED' ? words.problems.notAsked : words.problems.unknownChoice;
    problems.push({ fieldId: choiceId(qi, 0), message: `${view.questions[qi]?.text ?? ''} ${text}` });
    return again(400);
  }
  return { redirect: true };
}

/** A refusal of the service (a purchased quote, a plan without screening…) as a page saying so; the rest is a 500. */
async function guarded(p: Page, run: () => Promise<PageAnswer>): Promise<PageAnswer> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const words = PAGE_WORDS[p.opened.language];
    const status = error.kind === 'not-found' ? 404 : 409;
    return { status, page: messagePage(frameOf(p, 'NOT_STARTED'), words.closedTitle, words.expiredText) };
  }
}
