import { newRecordId } from '../kernel/ids/ordered-ids.js';
import type { Actor } from '../auth/principal.js';
import type { BrandCode } from '../kernel/brands.js';
import type { BrandCatalogue } from '../catalogue/model.js';
import { partnerGroupsOf } from '../catalogue/responses.js';
import type { CatalogueSnapshot } from '../catalogue/reader.js';
import { dateIn } from '../kernel/calendar/zones.js';
import { brandOf, brandTimeZone, versionInForce } from '../catalogue/service.js';
import { offersScreening } from '../catalogue/screening.js';
import type { Db } from '../db/database.js';
import type { Notification } from '../kernel/notifications/notification.js';
import { QuoteChangedConcurrently, QuotePurchased } from '../quotes/errors.js';
import { boughtQuote, claimedQuote } from '../quotes/repository-purchase.js';
import { findQuote } from '../quotes/repository.js';
import type { StoredQuote } from '../quotes/stored-quote.js';
import { problem, warning } from '../kernel/notifications/problems.js';
import type { HeldKey } from '../http/idempotency/service.js';
import { authorise, continueChallenge, crashPoint, isWaiting } from '../payments/flow/flow.js';
import { checkoutOf } from '../payments/three-ds.js';
import { advance, purchaseMoney } from './flow.js';
import { startPurchase } from './commits.js';
import { isRetryableEnd, OPEN_STATES, purchaseIdOfSubject, type NewPurchase, type Purchase } from './model.js';
import { buildPolicyRequest } from './policy-request.js';
import { assessReadiness } from './readiness.js';
import { findPurchase, findPurchaseOfQuote, startedPurchase } from './repository.js';
import { OnAccountNotEnabled, PurchaseInProgress, PurchaseQuoteNotFound, QuoteIdRequired } from './errors.js';
import { isOnAccountPurchaseEnabled } from '../auth/repository.js';
import { CardTokenNotAccepted } from '../payments/errors.js';
import type { PaymentMethod } from '../kernel/money/payment-methods.js';
import type { PurchaseRequest } from './schemas.js';
import type { PurchaseDeps } from './ports.js';

/** The partner user buying: the part of the caller's principal a purchase records. */
export type Buyer = Pick<Actor, 'userId' | 'partnerId' | 'partnerCode'>;

export interface PurchaseCall {
  readonly buyer: Buyer;
  readonly brandCode: BrandCode;
  readonly body: PurchaseRequest;
  /** The end customer's client: the body's `quote.clientInfo`, else the calling connection. */
  readonly client: { ipAddress?: string; userAgent?: string };
  /** The Idempotency-Key this request holds, if any: the purchase it starts or continues is named on it. */
  readonly idempotencyKey?: HeldKey;
}

/** What the purchase ended with: the quote as stored now, the attempt (if a payment was tried), problems. */
export interface PurchaseResult {
  readonly quote: StoredQuote;
  readonly purchase?: Purchase;
  readonly notifications: Notification[];
}

/** The catalogue as one request reads it: a single snapshot, the brand, the version its quotes are priced against. */
interface CatalogueView {
  readonly snapshot: CatalogueSnapshot;
  readonly brand: BrandCatalogue;
  readonly version: string;
}

/** The partner's quote as GET quote answers it: has the catalogue or rate version that priced it changed since? */
async function ownQuote(db: Db, call: PurchaseCall, id: string, version: string): Promise<StoredQuote> {
  const quote = await findQuote(db, id, call.brandCode, call.buyer.partnerId);
  if (!quote) throw new PurchaseQuoteNotFound(id);
  return withConfigFlag(quote, version);
}

function withConfigFlag(quote: StoredQuote, version: string): StoredQuote {
  return { ...quote, hasConfigChanged: quote.pricedVersion !== version };
}

/**
 * Buys a stored quote (docs/api-contract.md, "Purchase"): checks, claims the quote together
 * with a purchase record, then authorises through the gateway; approval issues the policy
 * and captures. Business outcomes (not ready, declined, challenge) are results, not errors.
 */
export async function purchaseQuote(deps: PurchaseDeps, call: PurchaseCall): Promise<PurchaseResult> {
  const id = call.body.quote.id;
  if (id.trim() === '') throw new QuoteIdRequired();
  const snapshot = await deps.catalogue.snapshot();
  const brand = brandOf(snapshot, call.brandCode);
  const catalogue: CatalogueView = { snapshot, brand, version: versionInForce(snapshot, brand) };
  const subject = call.idempotencyKey?.subject;
  const earlier = subject === undefined ? undefined : await answerOfKey(deps, call, subject, catalogue);
  if (earlier) return earlier;
  const paymentMethod = await paymentMethodOf(deps, call);
  const quote = await ownQuote(deps.db, call, id, catalogue.version);
  if (quote.isPurchased) throw new QuotePurchased();
  const threeDs = call.body.threeDSRequestInfo;
  if (threeDs?.threeDSRequest !== undefined) return continueWaiting(deps, call, quote, catalogue);
  if (quote.isPurchaseInitiated) throw new PurchaseInProgress();

  const today = dateIn(deps.clock(), brandTimeZone(snapshot, brand));
  const plan = brand.plans.find((p) => p.planId === quote.input.planId);
  const screenings = await deps.screenings.ofQuote(quote.id, {
    input: quote.input,
    catalogueVersion: quote.pricedVersion,
  });
  const readiness = assessReadiness(quote, call.body, {
    screenings,
    plan,
    screeningOffered: !plan || offersScreening(snapshot.screening, brand.screening, plan.code),
    today,
    partnerGroupIds: partnerGroupsOf(brand, call.buyer.partnerCode),
  });
  // A referral refuses with a 409 before any card or money record (docs/api-contract.md, "Referrals").
  const approval = await deps.referrals.approvalFor({
    quote,
    input: readiness.input,
    screenings,
    priced: readiness.price !== undefined,
  });
  const notifications = approval
    ? readiness.notifications.filter((n) => n.code !== 'SCREENING_REFERRED')
    : [...readiness.notifications];
  const cardToken = call.body.cardToken?.token?.trim() ?? '';
  const byCard = paymentMethod === 'CARD';
  if (byCard && !cardToken)
    notifications.push(problem('FIELD_REQUIRED', 'cardToken.token is required: a tokenised card.', 'cardToken.token'));
  const { price } = readiness;
  if (notifications.length > 0 || !price || !plan || (byCard && !cardToken)) return { quote, notifications };

  const policyRequest = buildPolicyRequest({
    quote,
    input: readiness.input,
    price,
    plan,
    brand,
    snapshot,
    createdByUserId: call.buyer.userId,
    client: call.client,
    today,
    screenings,
    ...(approval ? { approval } : {}),
  });
  const issueRequest = { ...policyRequest, paymentMethod };
  const at = deps.clock().toISOString();
  const claim = { quote, input: readiness.input, stage: readiness.stage, at };
  const recorded: NewPurchase = {
    id: newRecordId(),
    quoteId: quote.id,
    brandCode: call.brandCode,
    partnerId: call.buyer.partnerId,
    userId: call.buyer.userId,
    // The server's price of the chosen plan; nothing in the body changes it.
    amountMinor: price.totalPrice ?? 0,
    currency: plan.currencyCode,
    paymentMethod,
    cardToken,
    ...(call.body.cardToken?.source !== undefined ? { cardSource: call.body.cardToken.source } : {}),
    issueRequest,
    at,
  };
  if (!(await startPurchase(deps.db, claim, recorded, call.idempotencyKey))) {
    const latest = await ownQuote(deps.db, call, id, catalogue.version);
    if (latest.isPurchased) throw new QuotePurchased();
    if (latest.isPurchaseInitiated) throw new PurchaseInProgress();
    throw new QuoteChangedConcurrently();
  }
  crashPoint(deps, 'start');
  const checkout = checkoutOf(brand.brand.name, threeDs?.origin);
  const { purchase, bought } = await authorise(purchaseMoney, deps, startedPurchase(recorded), checkout);
  const answered = bought
    ? withConfigFlag(boughtQuote(claimedQuote(claim), bought), catalogue.version)
    : await ownQuote(deps.db, call, id, catalogue.version);
  return { quote: answered, purchase, notifications: answerNotifications(purchase, answered, brand) };
}

/**
 * How the purchase is paid (`paymentMethod`, CARD when absent), judged before anything is recorded:
 * on account needs the partner's `isOnAccountPurchaseEnabled`, read now (an operator may switch it
 * at any time), and takes no card token.
 */
async function paymentMethodOf(deps: PurchaseDeps, call: PurchaseCall): Promise<PaymentMethod> {
  const method = call.body.paymentMethod ?? 'CARD';
  if (method !== 'ON_ACCOUNT') return method;
  if (call.body.cardToken?.token !== undefined) throw new CardTokenNotAccepted();
  if (!(await isOnAccountPurchaseEnabled(deps.db, call.buyer.partnerId))) throw new OnAccountNotEnabled();
  return method;
}

/**
 * A retry with the Idempotency-Key of a purchase it started or continued whose answer was never
 * kept (a 503 after a commit, a process that died, recovery that finished it): the purchase's own
 * answer, finishing it first if it was left mid-way. Undefined when the request must run: the
 * attempt the gateway failed (the contract says to retry: a new attempt runs), or a continuation
 * whose challenge still waits (it continues again; the gateway replays its answer).
 */
async function answerOfKey(
  deps: PurchaseDeps,
  call: PurchaseCall,
  subject: string,
  catalogue: CatalogueView,
): Promise<PurchaseResult | undefined> {
  const id = purchaseIdOfSubject(subject);
  const started = id === undefined ? undefined : await findPurchase(deps.db, id);
  if (!started || isRetryableEnd(started)) return undefined;
  if (call.body.threeDSRequestInfo?.threeDSRequest !== undefined && isWaiting(purchaseMoney, started)) return undefined;
  // Compare-and-set steps with the purchase's gateway keys: safe beside recovery or a late original.
  const { purchase } = await advance(deps, started);
  const quote = await ownQuote(deps.db, call, purchase.quoteId, catalogue.version);
  return { quote, purchase, notifications: answerNotifications(purchase, quote, catalogue.brand) };
}

/** The follow-up call after a 3-D Secure challenge: continues the waiting purchase (only now is the card authorised). */
async function continueWaiting(
  deps: PurchaseDeps,
  call: PurchaseCall,
  quote: StoredQuote,
  catalogue: CatalogueView,
): Promise<PurchaseResult> {
  const info = call.body.threeDSRequestInfo ?? {};
  const pending = quote.isPurchaseInitiated ? await findPurchaseOfQuote(deps.db, quote.id, OPEN_STATES) : undefined;
  if (!isWaiting(purchaseMoney, pending)) {
    if (pending) throw new PurchaseInProgress();
    return {
      quote,
      notifications: [
        problem(
          'THREEDS_NO_PENDING_CHALLENGE',
          'No 3-D Secure challenge of this quote is waiting; start the purchase again.',
          'threeDSRequestInfo.threeDSRequest',
        ),
      ],
    };
  }
  const continued = await continueChallenge(purchaseMoney, deps, pending, info, call.idempotencyKey);
  if ('refused' in continued) return { quote, purchase: pending, notifications: continued.refused };
  const { purchase } = continued.moved;
  const answered = await ownQuote(deps.db, call, quote.id, catalogue.version);
  return { quote: answered, purchase, notifications: answerNotifications(purchase, answered, catalogue.brand) };
}

/**
 * A policy is issued without an e-mail address of its primary traveller, but its documents cannot
 * be sent: a warning in the brand's own words (content `NOEMAILADDRESS`), `isValid` stays true.
 */
function documentNotices(purchase: Purchase, quote: StoredQuote, brand: BrandCatalogue): Notification[] {
  if (purchase.state !== 'ISSUED' && purchase.state !== 'CAPTURED') return [];
  const primary = purchase.issueRequest.travellers.find((t) => t.isPrimary) ?? purchase.issueRequest.travellers[0];
  if (primary?.emailAddress?.trim()) return [];
  const index = Math.max(
    0,
    (quote.input.policyHolders ?? []).findIndex((h) => h.isPrimary === true),
  );
  const items = brand.brand.contentItems[brand.brand.defaultLanguage] ?? [];
  const text = items.find((i) => i.type === 'NOEMAILADDRESS')?.content;
  return [
    warning(
      'NO_EMAIL_ADDRESS',
      text ?? 'The primary traveller has no e-mail address: the policy documents cannot be e-mailed.',
      `quote.input.policyHolders[${index}].emailAddress`,
    ),
  ];
}

/** The answer's Notifications once a purchase has moved: its payment's outcome, and whether its documents can be e-mailed. */
function answerNotifications(purchase: Purchase, quote: StoredQuote, brand: BrandCatalogue): Notification[] {
  return [...outcomeNotifications(purchase), ...documentNotices(purchase, quote, brand)];
}

/** A payment that did not go through is explained by one Notification (the reason in `tokens.reason`). */
function outcomeNotifications(purchase: Purchase): Notification[] {
  const reason = purchase.declineReason ?? '';
  switch (purchase.state) {
    case 'DECLINED':
      return [
        problem(
          'PAYMENT_DECLINED',
          'The card was declined; ask the customer for another card.',
          'cardToken.token',
          undefined,
          { reason, paymentResult: purchase.paymentResult ?? '' },
        ),
      ];
    case 'FAILED':
      return [
        problem(
          'PAYMENT_GATEWAY_ERROR',
          'The payment gateway failed; nothing was charged. Retry later.',
          purchase.paymentMethod === 'ON_ACCOUNT' ? 'paymentMethod' : 'cardToken.token',
          undefined,
          { reason },
        ),
      ];
    case 'VOIDED':
      return [
        problem(
          'POLICY_NOT_ISSUED',
          'The policy could not be issued; the card authorisation was released and nothing was charged.',
          'quote.id',
        ),
      ];
    default:
      return [];
  }
}
