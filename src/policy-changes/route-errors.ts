import { errorResponses } from '../http/error-responses.js';
import { PolicyNotFound } from '../policies/errors.js';
import {
  AmendmentReferred,
  ChangeAlreadyConfirmed,
  ChangePreviewExpired,
  PolicyCancelled,
  PolicyChangeInProgress,
  PolicyChangeNotFound,
} from './errors.js';

/** The errors each change route documents, with the refusal its examples show (http/error-responses.ts). */
const POLICY = 'BACAU260004217';
const AMENDMENT = 'amd_01JD9A2B3C4D5E6F7G8H9J0K1M';
const CANCELLATION = 'can_01JD9A2B3C4D5E6F7G8H9J0K1N';

export const PREVIEW_AMENDMENT_ERRORS = errorResponses(
  400,
  401,
  403,
  new PolicyNotFound(POLICY),
  new PolicyCancelled(POLICY),
  413,
  415,
  500,
  503,
);
export const PREVIEW_CANCELLATION_ERRORS = errorResponses(
  400,
  401,
  403,
  new PolicyNotFound(POLICY),
  new PolicyChangeInProgress(POLICY),
  413,
  415,
  500,
  503,
);
export const CONFIRM_AMENDMENT_ERRORS = errorResponses(
  400,
  401,
  403,
  new PolicyChangeNotFound('AMENDMENT', AMENDMENT),
  new AmendmentReferred('REFERRED'),
  new ChangePreviewExpired('AMENDMENT', '2026-11-28T10:30:00.000Z'),
  413,
  415,
  500,
  503,
);
export const CONFIRM_CANCELLATION_ERRORS = errorResponses(
  400,
  401,
  403,
  new PolicyChangeNotFound('CANCELLATION', CANCELLATION),
  new ChangeAlreadyConfirmed('CANCELLATION', 'SETTLED'),
  413,
  415,
  500,
  503,
);
export const READ_AMENDMENT_ERRORS = errorResponses(
  400,
  401,
  403,
  new PolicyChangeNotFound('AMENDMENT', AMENDMENT),
  500,
  503,
);
export const READ_CANCELLATION_ERRORS = errorResponses(
  400,
  401,
  403,
  new PolicyChangeNotFound('CANCELLATION', CANCELLATION),
  500,
  503,
);
