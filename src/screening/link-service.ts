import type { Actor } from '../auth/principal.js';
import { DOCUMENT_LANGUAGES, type DocumentLanguage } from '../documents/labels.js';
import type { BrandCode } from '../kernel/brands.js';
import { randomToken } from '../kernel/crypto/random-token.js';
import { newRecordId } from '../kernel/ids/ordered-ids.js';
import { InvalidInput } from '../kernel/errors.js';
import { findScreeningLink, replaceScreeningLink, type StoredScreeningLink } from './link-repository.js';
import { screenableTraveller, type ScreeningDeps } from './service.js';

/**
 * The hosted questionnaire's link (issue 30; security checklist 52): a random 256-bit value, kept
 * only as its hash, bound to one quote and traveller, expiring, and revoked by the next link made
 * for the traveller. The link does not start the screening: the page asks who answers first.
 */

/** The languages the page and the screening's questions come in: those a brand's texts may be in. */
export const PAGE_LANGUAGES = DOCUMENT_LANGUAGES;
export type PageLanguage = DocumentLanguage;

export interface ScreeningLinkDeps extends ScreeningDeps {
  /** SCREENING_LINK_HOURS. */
  readonly linkHours: number;
  /** Outside production a return URL may be http on 127.0.0.1 or localhost (a partner's test page). */
  readonly production: boolean;
  /** PUBLIC_BASE_URL and BASE_PATH: where the page's URL points. */
  readonly linkBaseUrl: string;
}

export class ReturnUrlRefused extends InvalidInput {
  constructor() {
    super(
      'INVALID_RETURN_URL',
      'returnUrl must be an absolute https URL without credentials (http only on 127.0.0.1 or localhost outside production).',
      { property: 'returnUrl' },
    );
  }
}

/** The partner's page, when it may be a way back: https, or http on a loopback host outside production. */
export function acceptedReturnUrl(value: string, production: boolean): string | undefined {
  if (value.length > 500 || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.username || url.password) return undefined;
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost';
  if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback && !production)) return url.href;
  return undefined;
}

/** When a link stops opening: SCREENING_LINK_HOURS after `now`, never past the start (UTC) of the departure day. */
export function linkExpiresAt(now: Date, hours: number, departureDate: string | undefined): string {
  const byHours = now.getTime() + hours * 3_600_000;
  const departure = departureDate ? Date.parse(`${departureDate}T00:00:00Z`) : Number.NaN;
  return new Date(Number.isNaN(departure) ? byHours : Math.min(byHours, departure)).toISOString();
}

const pageLanguageOf = (asked: string | undefined): PageLanguage => PAGE_LANGUAGES.find((l) => l === asked) ?? 'en';

/** Makes the traveller's link (revoking earlier ones); refused as a start of the screening would be. */
export async function createScreeningLink(
  deps: ScreeningLinkDeps,
  actor: Actor,
  brandCode: BrandCode,
  quoteId: string,
  guid: string,
  asked: { readonly returnUrl: string; readonly language?: PageLanguage },
): Promise<{ readonly url: string; readonly expiresAt: string; readonly language: PageLanguage }> {
  const returnUrl = acceptedReturnUrl(asked.returnUrl, deps.production);
  if (!returnUrl) throw new ReturnUrlRefused();
  const quote = await screenableTraveller(deps, actor, brandCode, quoteId, guid);
  const now = deps.clock();
  const expiresAt = linkExpiresAt(now, deps.linkHours, quote.departureDate);
  const language = asked.language ?? pageLanguageOf(quote.language);
  const value = randomToken(32);
  await deps.db.transaction().execute((trx) =>
    replaceScreeningLink(
      trx,
      {
        id: newRecordId(),
        quoteId,
        brandCode,
        partnerId: actor.partnerId,
        travellerGuid: guid,
        returnUrl,
        language,
        expiresAt,
        createdAt: now.toISOString(),
      },
      value,
    ),
  );
  return { url: `${deps.linkBaseUrl}/screening/v1/${value}`, expiresAt, language };
}

// Values are 43 characters (32 bytes base64url); anything else opens nothing without a query.
const PLAUSIBLE = /^[A-Za-z0-9_-]{43}$/;

/** What a link value opens: its live link, a real link past its time or replaced, or nothing. */
export type ScreeningLinkOpening =
  | {
      readonly state: 'open';
      readonly link: StoredScreeningLink;
      readonly language: PageLanguage;
      readonly actor: Actor;
    }
  | { readonly state: 'expired'; readonly language: PageLanguage }
  | { readonly state: 'unknown' };

export async function openScreeningLink(deps: ScreeningLinkDeps, value: string): Promise<ScreeningLinkOpening> {
  if (!PLAUSIBLE.test(value)) return { state: 'unknown' };
  const link = await findScreeningLink(deps.db, value);
  if (!link) return { state: 'unknown' };
  const language = pageLanguageOf(link.language);
  if (link.revokedAt || Date.parse(link.expiresAt) <= deps.clock().getTime()) return { state: 'expired', language };
  // The link acts for its partner on this one quote and traveller only (the routes never take others).
  const actor: Actor = { partnerId: link.partnerId, partnerCode: '', userId: 0, username: 'screening-link' };
  return { state: 'open', link, language, actor };
}
