import type { Checkout, ThreeDsStatus } from './gateway.js';
import type { Notification } from '../kernel/notifications/notification.js';
import { problem } from '../kernel/notifications/problems.js';

/** The answers a cardholder gives a challenge, echoed by the partner in `threeDSRequestInfo.threeDSStatus`. */
export const CONTINUATION_STATUSES = ['CHALLENGE_COMPLETED', 'CHALLENGE_FAILED'];

/**
 * What is wrong with a 3-D Secure continuation (pure): `threeDSRequest` must name the waiting
 * challenge (its URL, or its path's last segment) and `threeDSStatus` must be a cardholder's answer.
 * `what` names the thing the challenge belongs to ("purchase", "change").
 */
export function continuationProblems(
  challengeUrl: string,
  info: { readonly threeDSStatus?: string; readonly threeDSRequest?: string },
  what: string,
): Notification[] {
  const sent = info.threeDSRequest ?? '';
  const problems: Notification[] = [];
  // A gateway's URL may carry a query (Stripe's does): the whole URL, or its path's last segment, names it.
  if (sent !== challengeUrl && lastPathSegment(sent) !== lastPathSegment(challengeUrl))
    problems.push(
      problem(
        'THREEDS_REQUEST_MISMATCH',
        `threeDSRequest does not name the challenge of this ${what}.`,
        'threeDSRequestInfo.threeDSRequest',
      ),
    );
  if (!CONTINUATION_STATUSES.includes(info.threeDSStatus ?? ''))
    problems.push(
      problem(
        'INVALID_VALUE',
        'threeDSStatus must be CHALLENGE_COMPLETED or CHALLENGE_FAILED.',
        'threeDSRequestInfo.threeDSStatus',
        info.threeDSStatus,
        { allowed: CONTINUATION_STATUSES.join(',') },
      ),
    );
  return problems;
}

const lastPathSegment = (url: string): string | undefined =>
  (url.split(/[?#]/)[0] ?? '').split('/').filter(Boolean).at(-1);

/** A payment's 3-D Secure state as an answer shows it (spec §2.3 ThreeDsResponseInfo). */
export interface ThreeDsAnswer {
  threeDSStatus?: ThreeDsStatus;
  threeDSRequestPattern?: 'REDIRECT';
  threeDSResponse?: string;
}

/**
 * What a purchase's or a change's answer says of 3-D Secure: the whole waiting challenge (the URL to
 * open), else the status the payment ended with, else nothing. Stored as text, but only ever written
 * from the gateway's closed sets (gateway.ts).
 */
export function threeDsAnswerOf(payment: {
  readonly state: string;
  readonly challenge?: {
    readonly threeDSStatus: string;
    readonly threeDSRequestPattern: string;
    readonly threeDSResponse: string;
  };
  readonly threeDSStatus?: string;
}): ThreeDsAnswer | undefined {
  if (payment.state === 'CHALLENGE_PENDING' && payment.challenge) {
    const { threeDSStatus, threeDSRequestPattern, threeDSResponse } = payment.challenge;
    return {
      threeDSStatus: threeDSStatus as ThreeDsStatus,
      threeDSRequestPattern: threeDSRequestPattern as 'REDIRECT',
      threeDSResponse,
    };
  }
  return payment.threeDSStatus === undefined ? undefined : { threeDSStatus: payment.threeDSStatus as ThreeDsStatus };
}

/**
 * What a challenge page shows of a purchase or change: the brand as merchant, and the partner's
 * page (`threeDSRequestInfo.origin`) as the way back when it is an absolute http(s) URL without
 * credentials; any other value links nowhere (a `javascript:` URL must never become a link).
 */
export function checkoutOf(merchantName: string, origin: string | undefined): Checkout {
  const returnUrl = returnUrlOf(origin);
  return { merchantName, ...(returnUrl ? { returnUrl } : {}) };
}

export function returnUrlOf(origin: string | undefined): string | undefined {
  if (origin === undefined || origin.length > 500 || !URL.canParse(origin)) return undefined;
  const url = new URL(origin);
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return undefined;
  return url.href;
}
