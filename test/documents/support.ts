import type { LightMyRequestResponse } from 'fastify';
import type { BrandCode } from '../../src/kernel/brands.js';
import type { TestApp } from '../helpers/app.js';
import { call } from '../policy-changes/support.js';

export interface DocumentEntry {
  documentId: string;
  kind: 'CERTIFICATE' | 'CANCELLATION_NOTICE';
  sequenceNumber: number;
  language: string;
  fileName: string;
  createdAt: string;
  sizeBytes: number;
}

const base = (brand: BrandCode, policyNumber: string) => `/policies/v1/${brand}/policies/${policyNumber}/documents`;

export const listDocuments = (
  t: TestApp,
  policyNumber: string,
  options: { brand?: BrandCode; partner?: 'A' | 'B'; asBrand?: BrandCode } = {},
): Promise<LightMyRequestResponse> =>
  call(t, 'GET', base(options.asBrand ?? options.brand ?? 'brandau', policyNumber), {
    brand: options.brand ?? 'brandau',
    partner: options.partner ?? 'A',
  });

export const fetchDocument = (
  t: TestApp,
  policyNumber: string,
  documentId: string,
  options: { brand?: BrandCode; partner?: 'A' | 'B' } = {},
): Promise<LightMyRequestResponse> =>
  call(t, 'GET', `${base(options.brand ?? 'brandau', policyNumber)}/${documentId}`, {
    brand: options.brand ?? 'brandau',
    partner: options.partner ?? 'A',
  });

export const documentsOf = async (t: TestApp, policyNumber: string, brand: BrandCode = 'brandau') =>
  (await listDocuments(t, policyNumber, { brand })).json<{ documents: DocumentEntry[] }>().documents;

/** The policy's customer-link value, as the partner reads it on the summary. */
export const accessValueOf = async (t: TestApp, policyNumber: string, brand: BrandCode = 'brandau') =>
  (await call(t, 'GET', `/policies/v1/${brand}/policies/${policyNumber}`, { brand })).json<{
    policyDocumentAccessGuid: string;
  }>().policyDocumentAccessGuid;
