import { EXAMPLE_BRAND } from './catalogue.js';
import { boughtPolicy, isConfirmable, previewAmendment, previewCancellation, quoteAtDetails } from './demo-objects.js';
import type { DemoPartner } from './demo-partner.js';
import type { ExampleValues } from './values.js';

/**
 * The demo objects behind a staging server's /docs examples, kept usable: made on the first read
 * of the document, and each remade when an example used it up (a quote bought, a change confirmed,
 * a referral withdrawn, an endpoint deleted) or it would expire while a reader looks. Each read of
 * the document checks them (a few in-process reads); one refresh runs at a time. Everything lives
 * in the database as any partner's objects do; only the ids are kept here.
 */
const Q = `/quotes/v2/${EXAMPLE_BRAND}`;
const P = `/policies/v1/${EXAMPLE_BRAND}/policies`;
const W = `/partners/v1/${EXAMPLE_BRAND}`;
const DAY = 86_400_000;
/** The trip leaves in two weeks; once it is a week away every object is made again on new dates. */
const DEPARTS_IN_DAYS = 14;
const REMAKE_WITHIN_DAYS = 7;
/** How long the first read of the document waits for the outbox to publish an event to the feed. */
const EVENT_WAIT_MS = 120_000;

const isoDay = (at: Date, days: number) => new Date(at.getTime() + days * DAY).toISOString().slice(0, 10);
const tripFrom = (now: Date) => ({
  departureDate: isoDay(now, DEPARTS_IN_DAYS),
  returnDate: isoDay(now, DEPARTS_IN_DAYS + 13),
  laterReturnDate: isoDay(now, DEPARTS_IN_DAYS + 20),
});

export class ApiExampleShowcase {
  private values: ExampleValues | undefined;
  private refreshing: Promise<ExampleValues> | undefined;

  constructor(
    private readonly partner: DemoPartner,
    private readonly clock: () => Date,
    private readonly webhookUrl: string,
  ) {}

  /** The values of demo objects usable now (made or remade first when needed). */
  current(): Promise<ExampleValues> {
    this.refreshing ??= this.refresh().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async refresh(): Promise<ExampleValues> {
    const now = this.clock();
    const kept = this.values;
    const fresh = kept === undefined || Date.parse(kept.trip.departureDate) - now.getTime() < REMAKE_WITHIN_DAYS * DAY;
    const v = fresh ? undefined : kept;
    const base = v ?? { ...(await this.plan()), trip: tripFrom(now), login: this.login() };
    const made: ExampleValues = {
      ...base,
      quoteId: v && (await this.isOpenQuote(v.quoteId)) ? v.quoteId : await quoteAtDetails(this.partner, base),
      purchase: v && (await this.isOpenQuote(v.purchase.quoteId)) ? v.purchase : await this.purchasable(base),
      referredQuoteId:
        v && (await this.isReferred(v.referredQuoteId))
          ? v.referredQuoteId
          : await quoteAtDetails(this.partner, base, { destination: 'VEN' }),
      ...(v && (await this.isScreeningUnused(v))
        ? { screening: v.screening, screeningPage: v.screeningPage }
        : await this.screened(base)),
      policy:
        v && (await this.isConfirmable(`${P}/${v.policy.policyNumber}/amendments/${v.policy.amendmentId}`, now))
          ? v.policy
          : await this.amendable(base),
      cancellation:
        v &&
        (await this.isConfirmable(
          `${P}/${v.cancellation.policyNumber}/cancellations/${v.cancellation.cancellationId}`,
          now,
        ))
          ? v.cancellation
          : await this.cancellable(base),
      webhooks: await this.webhookEndpoints(v),
      eventId: v?.eventId || (await this.firstEventId()),
      eventWindow: { from: new Date(now.getTime() - DAY).toISOString(), to: now.toISOString() },
      statementMonth: await this.statementMonth(),
    };
    this.values = made;
    return made;
  }

  private login() {
    return { username: 'demoa.brandau@demo.example', password: 'DEMOA-brandau-demo-pass' };
  }

  /** The comprehensive plan DEMOA sells, and the declarations its purchase asks for. */
  private async plan(): Promise<Pick<ExampleValues, 'planId' | 'purchaseTerms'>> {
    const plan = await this.partner.call<{
      planId: number;
      purchaseTermsAndConditions: { termConditionId: number; policyActionTypeId: number }[];
    }>('GET', `/products/v1/${EXAMPLE_BRAND}/plans?planCode=COMP&partnerCode=DEMOA`);
    const terms = plan.purchaseTermsAndConditions.filter((t) => t.policyActionTypeId === 1);
    return { planId: plan.planId, purchaseTerms: terms.map((t) => t.termConditionId) };
  }

  private async isOpenQuote(quoteId: string): Promise<boolean> {
    const answer = await this.partner.read(`${Q}/quote/${quoteId}`);
    return answer.status === 200 && answer.json<{ policyNumber?: string }>().policyNumber === undefined;
  }

  private async isReferred(quoteId: string): Promise<boolean> {
    const answer = await this.partner.read(`${Q}/quote/${quoteId}`);
    return answer.status === 200 && answer.json<{ referral?: { status?: string } }>().referral?.status === 'REFERRED';
  }

  private async purchasable(base: Parameters<typeof quoteAtDetails>[1]) {
    const quoteId = await quoteAtDetails(this.partner, base);
    return { quoteId, idempotencyKey: `order-${quoteId}` };
  }

  private isConfirmable(url: string, now: Date): Promise<boolean> {
    return isConfirmable(this.partner, url, now);
  }

  private async amendable(base: Parameters<typeof boughtPolicy>[1]): Promise<ExampleValues['policy']> {
    const { policyNumber, documentAccessGuid } = await boughtPolicy(this.partner, base);
    const documents = await this.partner.call<{ documents?: { documentId: string }[] } | { documentId: string }[]>(
      'GET',
      `${P}/${policyNumber}/documents`,
    );
    const list = Array.isArray(documents) ? documents : (documents.documents ?? []);
    const documentId = list[0]?.documentId ?? 'CERTIFICATE';
    return {
      policyNumber,
      documentAccessGuid,
      documentId,
      amendmentId: await previewAmendment(this.partner, base, policyNumber),
    };
  }

  private async cancellable(base: Parameters<typeof boughtPolicy>[1]): Promise<ExampleValues['cancellation']> {
    const { policyNumber } = await boughtPolicy(this.partner, base);
    return { policyNumber, cancellationId: await previewCancellation(this.partner, policyNumber) };
  }

  /** A quote whose travellers opted in for screening: h1 untouched, h2 past the first questions, h3's hosted page. */
  private async screened(base: Parameters<typeof quoteAtDetails>[1]) {
    const quoteId = await quoteAtDetails(this.partner, base, { screened: ['h1', 'h2', 'h3'] });
    const screening = `${Q}/quote/${quoteId}/travellers`;
    const person = {
      firstName: 'Byron',
      surname: 'Lovelace',
      dateOfBirth: '1984-05-02',
      email: 'ada@example.com',
      phone: '+61 400 000 000',
    };
    await this.partner.call('POST', `${screening}/h2/screening`, { authorizedPerson: person });
    const gate = ['gate.hospital', 'gate.medication', 'gate.awaiting', 'gate.terminal'];
    const asked = await this.partner.call<{ questions: { id: string }[] }>(
      'POST',
      `${screening}/h2/screening/answers`,
      {
        answers: gate.map((questionId, i) => ({ questionId, choiceCodes: [i === 0 ? 'YES' : 'NO'] })),
      },
    );
    const answerOf: Record<string, string> = { travelMode: 'AIR', conditions: 'TEST_COVERED' };
    const answers = asked.questions.map((q) => ({ questionId: q.id, choiceCodes: [answerOf[q.id] ?? 'NO'] }));
    const link = await this.partner.call<{ url: string }>('POST', `${screening}/h3/screening/link`, {
      returnUrl: 'https://shop.example/quote',
    });
    const value = link.url.slice(link.url.lastIndexOf('/') + 1);
    return {
      screening: { quoteId, unstartedGuid: 'h1', answeringGuid: 'h2', answers },
      screeningPage: { value, csrf: await this.pageToken(value) },
    };
  }

  /** The hosted page's first form token (empty once the page is past its first step). */
  private async pageToken(value: string): Promise<string> {
    const page = await this.partner.read(`/screening/v1/${value}`);
    const step = /name="step" value="who"[\s\S]*?name="csrf" value="([^"]+)"/.exec(page.body);
    return page.status === 200 ? (step?.[1] ?? '') : '';
  }

  private async isScreeningUnused(v: ExampleValues): Promise<boolean> {
    const base = `${Q}/quote/${v.screening.quoteId}/travellers`;
    const [unstarted, answering] = await Promise.all([
      this.partner.read(`${base}/${v.screening.unstartedGuid}/screening`),
      this.partner.read(`${base}/${v.screening.answeringGuid}/screening`),
    ]);
    const asked = answering.status === 200 ? answering.json<{ questions?: { id: string }[] }>().questions : undefined;
    return (
      unstarted.status === 404 &&
      (asked?.length ?? 0) > 0 &&
      (await this.isOpenQuote(v.screening.quoteId)) &&
      (await this.pageToken(v.screeningPage.value)) === v.screeningPage.csrf
    );
  }

  /** One endpoint the examples read, change and test, and a spare the delete example removes. */
  private async webhookEndpoints(v: ExampleValues | undefined): Promise<ExampleValues['webhooks']> {
    // A disabled endpoint (its deliveries failed for days) answers its test event 409: made again.
    const exists = async (id: string) => {
      const answer = await this.partner.read(`${W}/webhooks/${id}`);
      return answer.status === 200 && answer.json<{ enabled: boolean }>().enabled;
    };
    const make = async () =>
      (
        await this.partner.call<{ webhookId: string }>('POST', `${W}/webhooks`, {
          url: this.webhookUrl,
          description: 'Demo endpoint of /docs',
        })
      ).webhookId;
    const webhookId = v && (await exists(v.webhooks.webhookId)) ? v.webhooks.webhookId : await make();
    const spareWebhookId = v && (await exists(v.webhooks.spareWebhookId)) ? v.webhooks.spareWebhookId : await make();
    return { url: this.webhookUrl, webhookId, spareWebhookId };
  }

  /**
   * An event of the feed. The objects above recorded several; the outbox worker publishes them to
   * the feed moments later, so a first read of the document waits for one (checking at growing
   * intervals; it gives up after `EVENT_WAIT_MS`, and the event examples name none).
   */
  private async firstEventId(): Promise<string> {
    const started = Date.now();
    for (let pause = 50; ; pause = Math.min(pause * 2, 1_000)) {
      const feed = await this.partner.call<{ events: { id: string }[] }>('GET', `${W}/events?limit=1`);
      const id = feed.events[0]?.id;
      if (id !== undefined || Date.now() - started > EVENT_WAIT_MS) return id ?? '';
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  private async statementMonth(): Promise<string> {
    const list = await this.partner.call<{ statements: { month: string }[] }>('GET', `${W}/statements`);
    return list.statements[0]?.month ?? this.clock().toISOString().slice(0, 7);
  }
}
