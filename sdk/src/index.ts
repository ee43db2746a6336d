export { PartnerClient, type PartnerClientOptions } from './client.js';
export { PartnerApiError, type ApiNotification, type ErrorKind } from './errors.js';
export type { PartnerCredentials, TokenSet } from './auth.js';
export type { RequestOptions } from './transport.js';
export { OPERATIONS, type Operation, type PartnerOperationId } from './operations.js';
export type { StatementFormat, StatementOptions } from './resources/statements.js';
export { verify, sign, WebhookVerificationError } from './webhooks.js';
export type { Answer, Body, BrandCode, OperationId, PathParams, Query, Schemas } from './types.js';
export type { components, operations, paths } from './generated/openapi.js';
