import { html, type Html } from '../kernel/html/markup.js';
import { SERVICE_LOOK, type PageLook } from '../kernel/html/look.js';
import { renderPage, type RenderedPage } from '../kernel/html/page.js';
import { minorDigits, toMajor } from '../kernel/money/units.js';
import type { PageLanguage } from './link-service.js';
import type { AuthorizedPerson, ScreeningQuestion } from './model.js';
import { PAGE_WORDS, type PageWords } from './page-words.js';
import type { ScreeningView } from './service.js';

/**
 * The hosted screening pages (pure): who answers, the questions, finishing, the result; plain HTML
 * forms that post to the page's own URL (no script), each with its CSRF token.
 */

/** A problem shown beside its field and in the summary at the top (linked to the field). */
export interface FieldProblem {
  /** The id of the input the summary links to. */
  readonly fieldId: string;
  readonly message: string;
}

export interface PageFrame {
  readonly language: PageLanguage;
  readonly look: PageLook;
  /** The partner's page with the quote, traveller and screening status: the way back. */
  readonly backHref: string;
}

const wordsOf = (frame: PageFrame) => PAGE_WORDS[frame.language];

function page(frame: PageFrame, title: string, main: Html, postsForm: boolean): RenderedPage {
  return renderPage({ lang: frame.language, title, look: frame.look, main, postsForm });
}

function summary(words: PageWords, problems: readonly FieldProblem[]): Html | '' {
  if (problems.length === 0) return '';
  return html`<div class="notice" role="alert" aria-labelledby="error-summary-title">
    <h2 id="error-summary-title">${words.errorSummary}</h2>
    <ul>
      ${problems.map((p) => html`<li><a href="#${p.fieldId}">${p.message}</a></li>`)}
    </ul>
  </div>`;
}

const problemOf = (problems: readonly FieldProblem[], fieldId: string) => problems.find((p) => p.fieldId === fieldId);

function errorLine(problem: FieldProblem | undefined, id: string): Html | '' {
  return problem ? html`<p class="error" id="${id}-error">${problem.message}</p>` : '';
}

const form = (step: string, token: string, body: Html, button: string) =>
  html`<form method="post" novalidate>
    <input type="hidden" name="step" value="${step}" />
    <input type="hidden" name="csrf" value="${token}" />
    ${body}
    <div class="actions"><button class="button" type="submit">${button}</button></div>
  </form>`;

const leave = (frame: PageFrame) =>
  html`<p><a href="${frame.backHref}" rel="noreferrer">${wordsOf(frame).leave}</a></p>`;

export interface WhoForm {
  readonly who?: string;
  readonly person: Partial<AuthorizedPerson>;
}

const PERSON_FIELDS = [
  ['firstName', 'text', 'given-name'],
  ['surname', 'text', 'family-name'],
  ['dateOfBirth', 'text', 'bday'],
  ['email', 'email', 'email'],
  ['phone', 'tel', 'tel'],
] as const;

/** Who answers: the traveller or a person they authorised, with what AuthorizedPerson needs. */
export function whoPage(
  frame: PageFrame,
  token: string,
  values: WhoForm,
  problems: readonly FieldProblem[],
  stale: boolean,
): RenderedPage {
  const words = wordsOf(frame);
  const whoProblem = problemOf(problems, 'who-TRAVELLER');
  const radio = (code: string, label: string) =>
    html`<div class="choice">
      <input type="radio" id="who-${code}" name="who" value="${code}" ${values.who === code ? html`checked` : ''} />
      <label for="who-${code}">${label}</label>
    </div>`;
  const field = ([name, type, autocomplete]: (typeof PERSON_FIELDS)[number]) => {
    const id = `person-${name}`;
    const problem = problemOf(problems, id);
    const hint = name === 'dateOfBirth' ? html`<p class="hint" id="${id}-hint">${words.person.dateHint}</p>` : '';
    const described = [problem ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
    return html`<div class="field">
      <label for="${id}">${words.person[name]}</label>${hint}${errorLine(problem, id)}
      <input
        id="${id}"
        name="${name}"
        type="${type}"
        autocomplete="${autocomplete}"
        value="${values.person[name] ?? ''}"
        ${described ? html`aria-describedby="${described}"` : ''}
        ${problem ? html`aria-invalid="true"` : ''}
      />
    </div>`;
  };
  const body = html`<fieldset ${whoProblem ? html`aria-describedby="who-TRAVELLER-error"` : ''}>
      <legend>${words.whoLegend}</legend>
      ${errorLine(whoProblem, 'who-TRAVELLER')} ${radio('TRAVELLER', words.whoTraveller)}
      ${radio('OTHER', words.whoOther)}
      <p class="hint">${words.whoHint}</p>
    </fieldset>
    ${PERSON_FIELDS.map(field)}`;
  const main = html`${summary(words, problems)}
    <h1>${words.title}</h1>
    ${stale ? html`<p class="notice">${words.staleNotice}</p>` : ''}
    <p>${words.intro}</p>
    ${form('who', token, body, words.next)} ${leave(frame)}`;
  return page(frame, words.title, main, true);
}

/** The input id of a question's choice (ids are made of indexes: question ids may hold any character). */
export const choiceId = (questionIndex: number, choiceIndex: number) => `q${questionIndex}-c${choiceIndex}`;

/** The questions asked now, one fieldset each; `chosen` keeps what was ticked when the page comes back with problems. */
export function questionsPage(
  frame: PageFrame,
  token: string,
  questions: readonly ScreeningQuestion[],
  chosen: Readonly<Record<string, readonly string[]>>,
  problems: readonly FieldProblem[],
): RenderedPage {
  const words = wordsOf(frame);
  const fieldsets = questions.map((q, qi) => {
    const problem = problemOf(problems, choiceId(qi, 0));
    const type = q.multiple ? 'checkbox' : 'radio';
    const choices = q.choices.map((c, ci) => {
      const id = choiceId(qi, ci);
      const checked = (chosen[q.id] ?? []).includes(c.code);
      return html`<div class="choice">
        <input type="${type}" id="${id}" name="q:${q.id}" value="${c.code}" ${checked ? html`checked` : ''} />
        <label for="${id}">${c.text}</label>
      </div>`;
    });
    return html`<fieldset ${problem ? html`aria-describedby="${choiceId(qi, 0)}-error"` : ''}>
      <legend>${q.text}</legend>
      ${q.multiple ? html`<p class="hint">${words.chooseAny}</p>` : ''} ${errorLine(problem, choiceId(qi, 0))}
      ${choices}
    </fieldset>`;
  });
  const main = html`${summary(words, problems)}
    <h1>${words.questionsTitle}</h1>
    ${form('answers', token, html`${fieldsets}`, words.next)} ${leave(frame)}`;
  return page(frame, words.questionsTitle, main, true);
}

/** Every question answered: finishing assesses them. */
export function confirmPage(frame: PageFrame, token: string): RenderedPage {
  const words = wordsOf(frame);
  const main = html`<h1>${words.confirmTitle}</h1>
    <p>${words.confirmText}</p>
    ${form('complete', token, html``, words.complete)} ${leave(frame)}`;
  return page(frame, words.confirmTitle, main, true);
}

/** The result in plain words and amounts, per condition; the way back to the partner. */
export function resultPage(frame: PageFrame, screening: ScreeningView): RenderedPage {
  const words = wordsOf(frame);
  const result = screening.result;
  const a = result?.assessment;
  const currency = screening.currencyCode;
  const money = new Intl.NumberFormat(frame.language, { style: 'currency', currency: currency || 'AUD' });
  const amount = (minor: number) => money.format(toMajor(minor, minorDigits(currency)));
  const conditions = (a?.conditions ?? []).map(
    (c) =>
      html`<section class="card" aria-labelledby="condition-${c.conditionCode}">
        <h3 id="condition-${c.conditionCode}">${c.name}</h3>
        <dl class="facts">
          <dt>${words.outcome}</dt>
          <dd>${words.conditionOutcomes[c.outcome]}</dd>
          <dt>${words.medicalPremium}</dt>
          <dd>${amount(c.medicalPremiumMinor)}</dd>
          <dt>${words.excess}</dt>
          <dd>${amount(c.excessMinor)}</dd>
        </dl>
      </section>`,
  );
  const main = html`<h1>${words.resultTitle}</h1>
    <section class="card" aria-labelledby="result-heading">
      <h2 id="result-heading">${a ? words.travellerOutcomes[a.outcome] : ''}</h2>
      <dl class="facts">
        <dt>${words.reference}</dt>
        <dd>${result?.referenceNumber}</dd>
        <dt>${words.medicalPremium}</dt>
        <dd class="amount">${amount(a?.medicalPremiumMinor ?? 0)}</dd>
        <dt>${words.excess}</dt>
        <dd>${amount(a?.excessMinor ?? 0)}</dd>
      </dl>
    </section>
    ${conditions.length > 0 ? conditions : html`<p>${words.noConditions}</p>`}
    ${a?.signposting ? html`<p class="notice">${words.signposting}</p>` : ''}
    <div class="actions"><a class="button" href="${frame.backHref}" rel="noreferrer">${words.back}</a></div>`;
  return page(frame, words.resultTitle, main, false);
}

/** A page that only says something: an expired link, a refused form, a screening that cannot change. */
export function messagePage(frame: PageFrame | PageLanguage, title: string, text: string): RenderedPage {
  const language = typeof frame === 'string' ? frame : frame.language;
  const look = typeof frame === 'string' ? { ...SERVICE_LOOK, name: PAGE_WORDS[language].serviceName } : frame.look;
  const back =
    typeof frame === 'string'
      ? ''
      : html`<p><a href="${frame.backHref}" rel="noreferrer">${PAGE_WORDS[language].back}</a></p>`;
  return renderPage({
    lang: language,
    title,
    look,
    main: html`<h1>${title}</h1>
      <p>${text}</p>
      ${back}`,
  });
}
