import { boughtPolicies, CANCELLATION_BODY, extendedTripBody, type QuoteSeeder } from './change-supply.js';
import type { BenchApi, BenchRequest } from './requests.js';

/**
 * Requests on one bought policy, for the rows that read or replay: the policy is bought through
 * the API with the approve card (as the change supply buys them), and what a row reads (a
 * preview, the rendered documents, the customer's link) is made through the API before the clock
 * starts. Each row buys its own policy, so no row's requests change what another row reads.
 */

const BRAND = 'brandau';
const json = { 'content-type': 'application/json' };
const policyPath = (policyNumber: string) => `/policies/v1/${BRAND}/policies/${policyNumber}`;

/** A policy bought for one row; `headers` carry the bearer token of its partner. */
export interface BenchPolicy {
  readonly api: BenchApi;
  readonly headers: Record<string, string>;
  readonly policyNumber: string;
}

export async function benchPolicy(
  api: BenchApi,
  headers: Record<string, string>,
  seed: QuoteSeeder,
): Promise<BenchPolicy> {
  const [policyNumber] = await boughtPolicies(api, headers, 1, seed);
  return { api, headers, policyNumber: policyNumber! };
}

async function called(api: BenchApi, request: BenchRequest, what: string): Promise<string> {
  const res = await api.call(request);
  if (res.status >= 300) throw new Error(`bench ${what}: ${res.status} ${res.body.slice(0, 2000)}`);
  return res.body;
}

/** The cancellation preview every bench policy can take (in cooling-off), on this policy. */
export const cancellationPreviewRequest = ({ headers, policyNumber }: BenchPolicy): BenchRequest => ({
  method: 'POST',
  path: `${policyPath(policyNumber)}/cancellations`,
  headers: { ...headers, ...json },
  body: CANCELLATION_BODY,
});

/** A preview of `kind` recorded on the policy (the amendment: the trip back a week later); the request reading it. */
export async function changeReadRequest(
  policy: BenchPolicy,
  kind: 'amendments' | 'cancellations',
): Promise<BenchRequest> {
  const { api, headers, policyNumber } = policy;
  const preview =
    kind === 'cancellations'
      ? cancellationPreviewRequest(policy)
      : {
          method: 'POST' as const,
          path: `${policyPath(policyNumber)}/amendments`,
          headers: { ...headers, ...json },
          body: await extendedTripBody(api, headers),
        };
  const { id } = JSON.parse(await called(api, preview, `${kind} preview`)) as { id: string };
  return { method: 'GET', path: `${policyPath(policyNumber)}/${kind}/${id}`, headers };
}

/** The policy's document list; the first list renders the documents, so the timed ones only read them. */
export async function documentListRequest({ api, headers, policyNumber }: BenchPolicy): Promise<BenchRequest> {
  const request: BenchRequest = { method: 'GET', path: `${policyPath(policyNumber)}/documents`, headers };
  await called(api, request, 'document list');
  return request;
}

/** The policy's first document (the purchase's certificate), rendered before. */
export async function documentPdfRequest(policy: BenchPolicy): Promise<BenchRequest> {
  const list = await documentListRequest(policy);
  const { documents } = JSON.parse(await called(policy.api, list, 'document list')) as {
    documents: { documentId: string }[];
  };
  if (!documents[0]) throw new Error(`bench document list of ${policy.policyNumber}: no document`);
  return { method: 'GET', path: `${list.path}/${documents[0].documentId}`, headers: policy.headers };
}

/** The customer's public page (no bearer token) of the policy, its documents rendered before. */
export async function customerLinkRequest(policy: BenchPolicy): Promise<BenchRequest> {
  await documentListRequest(policy);
  const summary = { method: 'GET' as const, path: policyPath(policy.policyNumber), headers: policy.headers };
  const { policyDocumentAccessGuid } = JSON.parse(await called(policy.api, summary, 'policy summary')) as {
    policyDocumentAccessGuid?: string;
  };
  if (!policyDocumentAccessGuid) throw new Error(`bench policy ${policy.policyNumber}: no policyDocumentAccessGuid`);
  return { method: 'GET', path: `/documents/v1/${encodeURIComponent(policyDocumentAccessGuid)}` };
}

/** Queues the documents' e-mail again (202); each request records a new message, no `Idempotency-Key`. */
export const documentResendRequest = ({ headers, policyNumber }: BenchPolicy): BenchRequest => ({
  method: 'POST',
  path: `${policyPath(policyNumber)}/documents/send`,
  headers: { ...headers, ...json },
  body: '{}',
});
