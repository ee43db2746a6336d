import { Type, type Static, type TSchema } from 'typebox';
import { BRAND_CODES } from '../kernel/brands.js';
import { Validation } from '../kernel/notifications/notification.js';

/** The error envelope every endpoint uses, and shared HTTP shapes (parameters, ids). */

export const ErrorResponse = Type.Object(
  { validation: Validation },
  {
    title: 'ErrorResponse',
    description:
      'Body of every non-2xx answer except the token endpoint: `validation.isValid` is false and `validation.errors` lists Notifications.',
    examples: [
      {
        validation: {
          isValid: false,
          errors: [
            { code: 'UNKNOWN_BRAND', message: "Brand 'acme' does not exist.", property: 'brandCode', value: 'acme' },
          ],
        },
      },
    ],
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

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request: wrong JSON types, unparsable body, or a missing or invalid parameter.',
  401: 'No valid bearer token.',
  403: 'The caller is known but may not do this: another brand (`BRAND_NOT_ALLOWED`), another partner (`PARTNER_NOT_ALLOWED`), a closed endpoint (`METRICS_DISABLED`).',
  404: 'Unknown brand, route or resource (also when the resource belongs to another partner).',
  409: 'The request conflicts with the current state.',
  413: 'The body is larger than the server accepts.',
  415: 'The body is not of the media type this endpoint accepts.',
  422: 'Well-formed but not acceptable as it stands.',
  429: 'Too many requests; see `Retry-After`.',
  500: 'Unexpected server error; the body carries only the request id.',
  503: 'A dependency is unavailable; retry later.',
};

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

/** Error responses a route documents, all with the common envelope. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const responses: Record<number, TSchema> = {};
  for (const status of statuses) {
    // The envelope itself (one named schema); the status's meaning becomes the response description.
    responses[status] = { ...ErrorResponse, description: ERROR_DESCRIPTIONS[status] ?? 'Error.' };
  }
  return responses;
}
