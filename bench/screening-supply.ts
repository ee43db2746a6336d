import type { AnswerBatch } from './seed/screenings.js';
import { createReadyQuote, planFacts, readyQuoteBody } from './quote-supply.js';
import type { BenchApi, BenchRequest, RequestSupply } from './requests.js';

/**
 * Medical screenings for the screening rows (issue 30). An answer is taken once per step and a
 * screening is completed once (a second answer replaces the first, a second complete answers the
 * stored result: neither is the work measured), so every request of a run gets its own
 * traveller's screening at the row's step; the refresh gets its own quote with two completed
 * screenings. The first quote is made through the API, the others by the quotes and screening
 * services in the bench process (`seedQuotes`, `seedScreenings`); one seeded screening is read
 * back and must equal the API's, and the row's request is made once on a seeded one and checked.
 */

const BRAND = 'brandau';
const json = { 'content-type': 'application/json' };
/** The travellers of the ready quote who opt in (both adults; the dependent does not). */
const SCREENED = ['adult-1', 'adult-2'] as const;
/** Declared by each traveller: a real condition's follow-ups, scored (not covered automatically). */
const CONDITIONS = ['HYPERTENSION', 'DIABETES_TYPE_2'];
/** What an exhausted supply sends: a quote that does not exist (404), never a 2xx. */
const UNKNOWN_QUOTE = '00000000-0000-7000-8000-000000000000';

export const AUTHORIZED_PERSON = {
  firstName: 'Ada',
  surname: 'Lovelace',
  dateOfBirth: '1984-05-02',
  email: 'ada@example.com',
  phone: '+61 400 000 000',
};

/** What a row measures: the answer declaring the conditions, the complete, the quote's refresh. */
export type ScreeningStep = 'answer' | 'complete' | 'refresh';

interface Question {
  readonly id: string;
  readonly kind: string;
  readonly choices: readonly { code: string }[];
}
interface ScreeningAnswer {
  status?: string;
  questions?: Question[];
  result?: { outcome?: string; tamisReferenceNumber?: string; screeningDate?: string };
}

/** The ready quote (DETAILS, COMP) with both adults opted in for screening and cover. */
function screenedInput(planId: number): { stage: string; input: Record<string, unknown> } {
  const body = JSON.parse(readyQuoteBody(planId)) as { stage: string; input: { policyHolders: { guid: string }[] } };
  const policyHolders = body.input.policyHolders.map((h) =>
    (SCREENED as readonly string[]).includes(h.guid)
      ? { ...h, travelClearOption: { optionType: 'TRAVELCLEAR', isOptedInForScreening: true, isOptedInForCover: true } }
      : h,
  );
  return { ...body, input: { ...body.input, policyHolders } };
}

/** Gates YES, by air, the two conditions, each follow-up NO (or its first choice). */
const choose = (questions: readonly Question[]): AnswerBatch =>
  questions.map((q) => ({
    questionId: q.id,
    choiceCodes:
      q.kind === 'GATE'
        ? ['YES']
        : q.kind === 'TRAVEL_MODE'
          ? ['AIR']
          : q.kind === 'CONDITIONS'
            ? CONDITIONS
            : [q.choices.some((c) => c.code === 'NO') ? 'NO' : q.choices[0]!.code],
  }));

const screeningPath = (quoteId: string, guid: string) =>
  `/quotes/v2/${BRAND}/quote/${quoteId}/travellers/${guid}/screening`;
const quotePath = (quoteId: string) => `/quotes/v2/${BRAND}/quote/${quoteId}`;

async function called(api: BenchApi, request: BenchRequest): Promise<Record<string, unknown>> {
  const res = await api.call(request);
  if (res.status !== 200)
    throw new Error(`${request.method} ${request.path}: ${res.status} ${res.body.slice(0, 2000)}`);
  return JSON.parse(res.body) as Record<string, unknown>;
}

/**
 * Walks a traveller's screening through the API: the start, then answer calls until `step`
 * (the answer row stops before the conditions are declared), completed for the refresh. Answers
 * the answer batches it sent and the batch that would come next.
 */
async function walkThroughApi(
  api: BenchApi,
  headers: Record<string, string>,
  at: { quoteId: string; guid: string },
  step: ScreeningStep,
): Promise<{ sent: AnswerBatch[]; next: AnswerBatch }> {
  const path = screeningPath(at.quoteId, at.guid);
  const post = (tail: string, body?: object): BenchRequest => ({
    method: 'POST',
    path: `${path}${tail}`,
    headers: body ? { ...headers, ...json } : headers,
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  let screening = (await called(api, post('', { authorizedPerson: AUTHORIZED_PERSON }))) as ScreeningAnswer;
  const sent: AnswerBatch[] = [];
  while ((screening.questions ?? []).length > 0) {
    const next = choose(screening.questions!);
    if (step === 'answer' && sent.length === 1) return { sent, next };
    screening = await called(api, post('/answers', { answers: next }));
    sent.push(next);
  }
  if (step === 'refresh') await called(api, post('/complete'));
  return { sent, next: [] };
}

/** A screening as read, without what differs by nature (its id, reference and date). */
const comparableScreening = (s: Record<string, unknown>) => {
  const { id: _id, result, ...rest } = s as { id?: string; result?: Record<string, unknown> };
  const { tamisReferenceNumber: _r, screeningDate: _d, ...kept } = result ?? {};
  return JSON.stringify({ ...rest, ...(result ? { result: kept } : {}) });
};

export interface ScreeningSupplyOptions {
  readonly step: ScreeningStep;
  /** Distinct requests wanted. */
  readonly count: number;
  readonly seedQuotes: (body: string, count: number) => Promise<string[]>;
  readonly seedScreenings: (
    travellers: { quoteId: string; guid: string }[],
    batches: readonly AnswerBatch[],
    complete: boolean,
  ) => Promise<void>;
  readonly progress?: (line: string) => void;
}

/** The row's request, its `supply` handing each prepared screening (or quote) out once. */
export async function screeningSupply(
  api: BenchApi,
  headers: Record<string, string>,
  options: ScreeningSupplyOptions,
): Promise<BenchRequest> {
  const { step } = options;
  const started = performance.now();
  const { planId } = await planFacts(api, headers);
  const quote = screenedInput(planId);
  const body = JSON.stringify(quote);
  const sample = (await createReadyQuote(api, headers, body)).id;
  let walked = { sent: [] as AnswerBatch[], next: [] as AnswerBatch };
  for (const guid of SCREENED) walked = await walkThroughApi(api, headers, { quoteId: sample, guid }, step);
  // One quote more than needed: its last screening (or itself) checks the row's request below.
  const perQuote = step === 'refresh' ? 1 : SCREENED.length;
  const seeded = await options.seedQuotes(body, Math.ceil(options.count / perQuote) + 1);
  const travellers = seeded.flatMap((quoteId) => SCREENED.map((guid) => ({ quoteId, guid })));
  await options.seedScreenings(travellers, walked.sent, step === 'refresh');
  const last = seeded[seeded.length - 1]!;
  const read = (quoteId: string) =>
    called(api, { method: 'GET', path: screeningPath(quoteId, SCREENED[1]), headers }).then(comparableScreening);
  const [fromApi, fromSeed] = [await read(sample), await read(last)];
  if (fromApi !== fromSeed) throw new Error(`a seeded screening differs from the API's:\n${fromSeed}\n${fromApi}`);

  const refreshBody = JSON.stringify({ ...quote, stage: 'MEDICAL_SCREENING' });
  const requestOf = (quoteId: string, guid: string = SCREENED[0]): Omit<BenchRequest, 'supply'> =>
    step === 'refresh'
      ? { method: 'PUT', path: quotePath(quoteId), headers: { ...headers, ...json }, body: refreshBody }
      : step === 'answer'
        ? {
            method: 'POST',
            path: `${screeningPath(quoteId, guid)}/answers`,
            headers: { ...headers, ...json },
            body: JSON.stringify({ answers: walked.next }),
          }
        : { method: 'POST', path: `${screeningPath(quoteId, guid)}/complete`, headers };
  const checked = await called(api, requestOf(last, SCREENED[1]));
  checkAnswer(step, checked);

  const paths = [sample, ...seeded.slice(0, -1)].flatMap((quoteId) =>
    step === 'refresh' ? [requestOf(quoteId).path] : SCREENED.map((guid) => requestOf(quoteId, guid).path),
  );
  options.progress?.(
    `${step}: ${paths.length} screened travellers' requests ready in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { ...requestOf(sample), supply: pathSupply(paths, requestOf(UNKNOWN_QUOTE).path) };
}

/** The row's answer is the one it means to measure: follow-ups asked, a covered result, a priced quote. */
function checkAnswer(step: ScreeningStep, answer: Record<string, unknown>): void {
  const text = JSON.stringify(answer).slice(0, 2000);
  if (step === 'answer' && !((answer as ScreeningAnswer).questions ?? []).some((q) => q.kind === 'FOLLOW_UP'))
    throw new Error(`screening answer: no follow-up question asked: ${text}`);
  if (step === 'complete' && (answer as ScreeningAnswer).result?.outcome !== 'COVERED')
    throw new Error(`screening complete: not covered: ${text}`);
  if (step === 'refresh') {
    const quote = answer as { stage?: string; priceResults?: { optionPriceResults?: { optionTypeCode?: string }[] }[] };
    const medical = (quote.priceResults ?? []).flatMap((p) =>
      (p.optionPriceResults ?? []).filter((o) => o.optionTypeCode === 'MEDICAL'),
    );
    if (quote.stage !== 'MEDICAL_SCREENING' || medical.length !== SCREENED.length)
      throw new Error(`quote refresh: not priced for two screened travellers: ${text}`);
  }
}

/** Hands out `paths[1…]` once each (the request itself uses `paths[0]`), then `refused` (404). */
function pathSupply(paths: readonly string[], refused: string): RequestSupply {
  let next = 1;
  let exhausted = 0;
  return {
    size: paths.length - 1,
    get used() {
      return next - 1;
    },
    get exhausted() {
      return exhausted;
    },
    next() {
      const path = paths[next];
      if (path === undefined) {
        exhausted += 1;
        return { path: refused };
      }
      next += 1;
      return { path };
    },
  };
}
