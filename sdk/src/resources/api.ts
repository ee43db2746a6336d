import { OPERATIONS, pathOf, type PartnerOperationId } from '../operations.js';
import type { Call, RequestOptions, Transport } from '../transport.js';
import type { Answer, BrandCode, PathParams } from '../types.js';

/** What a call adds to its operation's method and path. */
export type Parts = Omit<Call, 'method' | 'path'>;

/** Sends the operations of the table for one brand; the resources' only way out. */
export class Api {
  constructor(
    private readonly transport: Transport,
    readonly brand: BrandCode,
  ) {}

  /** The operation's JSON answer, typed from the OpenAPI document. */
  json<K extends PartnerOperationId>(
    operation: K,
    params: PathParams<K>,
    parts: Parts = {},
    options?: RequestOptions,
  ): Promise<Answer<K>> {
    return this.transport.send<Answer<K>>(this.call(operation, params, parts), options);
  }

  /** The operation's answer as bytes (a PDF). */
  bytes<K extends PartnerOperationId>(
    operation: K,
    params: PathParams<K>,
    parts: Parts,
    options?: RequestOptions,
  ): Promise<Uint8Array> {
    return this.transport.send<Uint8Array>(this.call(operation, params, { ...parts, read: 'bytes' }), options);
  }

  /** The operation's answer as text (CSV). */
  text<K extends PartnerOperationId>(
    operation: K,
    params: PathParams<K>,
    parts: Parts,
    options?: RequestOptions,
  ): Promise<string> {
    return this.transport.send<string>(this.call(operation, params, { ...parts, read: 'text' }), options);
  }

  private call(operation: PartnerOperationId, params: object, parts: Parts): Call {
    const values: Record<string, string | number> = { ...(params as Record<string, string | number>) };
    values['brandCode'] = this.brand;
    return { ...parts, method: OPERATIONS[operation].method, path: pathOf(operation, values) };
  }
}
