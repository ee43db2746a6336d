import { Type, type Static } from 'typebox';
import { BRAND_CODES } from '../kernel/brands.js';
import { Validation } from '../kernel/notifications/notification.js';

/** The error envelope every endpoint uses, and shared HTTP shapes (parameters, ids). */

export const ErrorResponse = Type.Object(
  { validation: Validation },
  {
    title: 'ErrorResponse',
    description:
      'Body of every non-2xx answer except the token endpoint: `validation.isValid` is false and `validation.errors` lists Notifications.',
  },
);
export type ErrorResponse = Static<typeof ErrorResponse>;

export const BrandCodeParam = Type.Enum([...BRAND_CODES], {
  type: 'string',
  description: 'The brand: `brandau`, `brandnz`, `directau` or `nomad`.',
});

export const BrandParams = Type.Object({ brandCode: BrandCodeParam });

/** A 64-bit id as partners send it on a path (digits only). */
export const LongId = (description: string) =>
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description });

/** A PDF download: the bytes, and the file name in `Content-Disposition` (`inline` to show it, `attachment` to save it). */
export function pdfAnswer(
  description: string,
  disposition: 'inline' | 'attachment',
  headers: Record<string, Record<string, unknown>> = {},
) {
  return {
    description,
    // Headers a route declares on an answer are on every such answer (http/openapi/shared.ts).
    headers: {
      'Content-Disposition': {
        type: 'string',
        pattern: `^${disposition}; filename="[^"]+"$`,
        description: `\`${disposition}; filename="…"\`: the document's file name.`,
      },
      ...headers,
    },
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  };
}
