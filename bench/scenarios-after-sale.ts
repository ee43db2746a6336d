import { boughtPolicies, confirmSupply, extendedTripBody, previewRequest } from './change-supply.js';
import {
  cancellationPreviewRequest,
  changeReadRequest,
  customerLinkRequest,
  documentListRequest,
  documentPdfRequest,
  documentResendRequest,
} from './policy-fixture.js';
import { bearer, changeCount, onePolicy, quoteSeeder, type Scenario } from './scenario.js';

/** The rows of what happens after the sale: amendments, cancellations, documents. */
export const AFTER_SALE_SCENARIOS: Scenario[] = [
  {
    name: 'amendmentPreview',
    description:
      'POST /policies/v1/{brand}/policies/{policyNumber}/amendments: the bought Bali trip returning a week later, re-priced and the difference recorded as a preview (the same policy each time).',
    prepare: async (api, _fixtures, run) => {
      const headers = await bearer(api);
      const [policyNumber] = await boughtPolicies(api, headers, 1, quoteSeeder(run, 'amendmentPreview'));
      return previewRequest(headers, policyNumber!, 'amendments', await extendedTripBody(api, headers));
    },
  },
  {
    name: 'amendmentConfirm',
    description:
      '…/amendments/{id}/confirm: a different policy and preview per request (return a week later), the difference charged with tok_sandbox_approved: authorise, apply, capture.',
    prepare: async (api, _fixtures, run) =>
      confirmSupply(api, await bearer(api), {
        kind: 'amendments',
        count: changeCount(run),
        seed: quoteSeeder(run, 'amendmentConfirm'),
        ...(run.progress ? { progress: run.progress } : {}),
      }),
  },
  {
    name: 'cancellationConfirm',
    description:
      '…/cancellations/{id}/confirm: a different policy and preview per request, cancelled in cooling-off: the whole premium refunded to the purchase payment.',
    prepare: async (api, _fixtures, run) =>
      confirmSupply(api, await bearer(api), {
        kind: 'cancellations',
        count: changeCount(run),
        seed: quoteSeeder(run, 'cancellationConfirm'),
        ...(run.progress ? { progress: run.progress } : {}),
      }),
  },
  {
    name: 'cancellationPreview',
    description:
      'POST /policies/v1/{brand}/policies/{policyNumber}/cancellations: the refund of a bought policy cancelled in cooling-off, recorded as a preview (the same policy each time).',
    prepare: async (api, _fixtures, run) =>
      cancellationPreviewRequest(await onePolicy(api, run, 'cancellationPreview')),
  },
  {
    name: 'amendmentRead',
    description:
      '…/amendments/{id}: an amendment preview (return a week later) of a bought policy, with its status now.',
    prepare: async (api, _fixtures, run) => changeReadRequest(await onePolicy(api, run, 'amendmentRead'), 'amendments'),
  },
  {
    name: 'cancellationRead',
    description: '…/cancellations/{id}: a cancellation preview of a bought policy, with its status now.',
    prepare: async (api, _fixtures, run) =>
      changeReadRequest(await onePolicy(api, run, 'cancellationRead'), 'cancellations'),
  },
  {
    name: 'documentList',
    description:
      '…/policies/{policyNumber}/documents: the kept documents of a bought policy (certificate per language), rendered by a first list before the clock.',
    prepare: async (api, _fixtures, run) => documentListRequest(await onePolicy(api, run, 'documentList')),
  },
  {
    name: 'documentPdf',
    description:
      '…/documents/{documentId}: the kept certificate PDF of a bought policy, byte for byte as first rendered.',
    prepare: async (api, _fixtures, run) => documentPdfRequest(await onePolicy(api, run, 'documentPdf')),
  },
  {
    name: 'customerLink',
    description:
      "GET /documents/v1/{policyDocumentAccessGuid}: the customer's public page of a bought policy, in its brand's look: its facts and status, its documents by transaction and language, the emergency number (no token; its per-address limit is off in the bench).",
    prepare: async (api, _fixtures, run) => customerLinkRequest(await onePolicy(api, run, 'customerLink')),
  },
  {
    name: 'documentResend',
    description:
      '…/documents/send: 202, a new e-mail of the documents queued in the outbox per request (the worker makes no pass during the run).',
    prepare: async (api, _fixtures, run) => documentResendRequest(await onePolicy(api, run, 'documentResend')),
  },
];
