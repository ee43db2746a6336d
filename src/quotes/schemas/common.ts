import { Type } from 'typebox';

/**
 * Bounded primitives of the quote contract. Spec types: `long` → integer, `double` → number.
 * Every field is optional (spec Conventions); bounds keep a body's size predictable.
 */

export const Text = (description: string, maxLength = 200) => Type.String({ maxLength, description });
export const ShortText = (description: string) => Type.String({ maxLength: 50, description });
/** A date as partners send it (YYYY-MM-DD); a malformed or impossible date is a validation Notification, not a 400. */
export const DateText = (description: string) => Type.String({ maxLength: 30, description });
export const Long = (description: string) =>
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });
/** A spec `long` that is an id; 0 means "none" (the spec's default). */
export const LongDefault0 = (description: string) =>
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });
export const Amount = (description: string) => Type.Number({ minimum: 0, maximum: 1e9, description });
/** A price in the contract: major currency units (e.g. dollars with cents as decimals). */
export const Money = (description: string) => Type.Number({ description });
export const Percentage = (description: string) => Type.Number({ description });
export const Flag = (description: string) => Type.Boolean({ description });
export const Maybe = Type.Optional;
