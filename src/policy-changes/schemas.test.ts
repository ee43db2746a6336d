import { describe, expect, it } from 'vitest';
import { nameSchemas, type OpenApiDocument } from '../http/openapi/document.js';
import {
  Amendment,
  AmendmentConfirmRequest,
  AmendmentRequest,
  Cancellation,
  CancellationConfirmRequest,
  CancellationRequest,
  PolicyChangeConfirmation,
} from './schemas.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema: JSON.parse(JSON.stringify(schema)) } } });
const operation = (body: unknown, answer: unknown) => ({ requestBody: json(body), responses: { 200: json(answer) } });

describe('policy change schemas in the OpenAPI document', () => {
  it('become named components, each title one shape', () => {
    const document: OpenApiDocument = {
      paths: {
        '/amendments': { post: operation(AmendmentRequest, Amendment) },
        '/amendments/confirm': { post: operation(AmendmentConfirmRequest, PolicyChangeConfirmation) },
        '/cancellations': { post: operation(CancellationRequest, Cancellation) },
        '/cancellations/confirm': { post: operation(CancellationConfirmRequest, PolicyChangeConfirmation) },
      },
      components: {},
    };
    const names = Object.keys(nameSchemas(document).components.schemas ?? {});
    expect(names).toEqual(
      expect.arrayContaining([
        'AmendmentRequest',
        'Amendment',
        'AmendmentConfirmRequest',
        'CancellationRequest',
        'Cancellation',
        'CancellationConfirmRequest',
        'PolicyChangeConfirmation',
        'PolicyChangeAmounts',
        'PolicyChangeStatus',
        'RefundBasis',
        'CancellationReasonCode',
        'RefundLine',
        'TaxSummary',
        'QuoteInput',
        'PolicySummary',
        'CardTokenInput',
        'ThreeDsRequestInfo',
        'ThreeDsResponseInfo',
      ]),
    );
  });
});
