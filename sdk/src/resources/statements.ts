import type { RequestOptions } from '../transport.js';
import type { Answer } from '../types.js';
import type { Api } from './api.js';

/** The representations of a month's statement, each asked for by `Accept`. */
const MEDIA = { json: 'application/json', csv: 'text/csv', pdf: 'application/pdf' } as const;

export type StatementFormat = keyof typeof MEDIA;

/** A call's options plus the representation: `json` (default), `csv` or `pdf` (the on-account tax invoice). */
export type StatementOptions<F extends StatementFormat = StatementFormat> = RequestOptions & { readonly format?: F };

export interface Statements {
  /** Your statement months, newest first. */
  list(o?: RequestOptions): Promise<Answer<'listStatements'>>;
  /** One month (`yyyy-mm`): the statement object. */
  get(month: string, o?: StatementOptions<'json'>): Promise<Answer<'getStatement'>>;
  /** One month as CSV text (a row per transaction, then totals and the on-account rows). */
  get(month: string, o: StatementOptions<'csv'> & { readonly format: 'csv' }): Promise<string>;
  /** The month's on-account tax invoice: the PDF's bytes. */
  get(month: string, o: StatementOptions<'pdf'> & { readonly format: 'pdf' }): Promise<Uint8Array>;
  /** Any representation, chosen at run time. */
  get(month: string, o: StatementOptions): Promise<Answer<'getStatement'> | string | Uint8Array>;
}

export function statementsOf(api: Api): Statements {
  function get(month: string, o?: StatementOptions<'json'>): Promise<Answer<'getStatement'>>;
  function get(month: string, o: StatementOptions<'csv'> & { readonly format: 'csv' }): Promise<string>;
  function get(month: string, o: StatementOptions<'pdf'> & { readonly format: 'pdf' }): Promise<Uint8Array>;
  function get(month: string, o: StatementOptions): Promise<Answer<'getStatement'> | string | Uint8Array>;
  function get(month: string, o: StatementOptions = {}): Promise<Answer<'getStatement'> | string | Uint8Array> {
    const { format = 'json', ...options } = o;
    if (!Object.hasOwn(MEDIA, format)) throw new TypeError(`statements.get: unknown format ${format}`);
    const parts = { accept: MEDIA[format] };
    if (format === 'csv') return api.text('getStatement', { month }, parts, options);
    if (format === 'pdf') return api.bytes('getStatement', { month }, parts, options);
    return api.json('getStatement', { month }, parts, options);
  }
  return { list: (o?: RequestOptions) => api.json('listStatements', {}, {}, o), get };
}
