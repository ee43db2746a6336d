import { Type } from 'typebox';
import { BrandParams } from '../http/schemas.js';
import { QuoteIdParam } from '../quotes/schemas.js';

/** TypeBox shapes of the referral routes (the answer is the quote's `QuoteReferral`, quotes/schemas/referral.ts). */
export const WithdrawParams = Type.Object({ ...BrandParams.properties, quoteId: QuoteIdParam });
