/** Request and answer types of each operation, derived from the generated OpenAPI types. */
import type { components, operations } from './generated/openapi.js';

export type OperationId = keyof operations;
export type Schemas = components['schemas'];

type Json<C> = C extends { content: { 'application/json': infer A } } ? A : never;

/** The JSON body an operation takes. */
export type Body<K extends OperationId> = operations[K] extends { requestBody: infer R }
  ? Json<R>
  : operations[K] extends { requestBody?: infer R }
    ? Json<NonNullable<R>>
    : never;

/** The query an operation takes. */
export type Query<K extends OperationId> = NonNullable<operations[K]['parameters']['query']>;

/** The path parameters of an operation, without the brand the client is bound to. */
export type PathParams<K extends OperationId> = Omit<operations[K]['parameters']['path'], 'brandCode'>;

/** The JSON answer of an operation's success (200, 201 or 202); undefined for 204. */
export type Answer<K extends OperationId> = operations[K]['responses'] extends { 200: infer R }
  ? Json<R>
  : operations[K]['responses'] extends { 201: infer R }
    ? Json<R>
    : operations[K]['responses'] extends { 202: infer R }
      ? Json<R>
      : undefined;

export type BrandCode = operations['createQuote']['parameters']['path']['brandCode'];
