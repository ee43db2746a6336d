import type { RequestOptions } from '../transport.js';
import type { Query } from '../types.js';
import type { Api } from './api.js';

/** Product configuration: base quote config, plans, brand content, feature switches, the PDS. */
export function productsOf(api: Api) {
  return {
    baseQuoteConfig: (query: Query<'getBaseQuoteConfig'>, o?: RequestOptions) =>
      api.json('getBaseQuoteConfig', {}, { query }, o),
    plan: (query: Query<'getPlanByCode'>, o?: RequestOptions) => api.json('getPlanByCode', {}, { query }, o),
    /** The brand's content (logos, colours, contact details, texts), in `lang` when it has it. */
    brands: (query: Query<'getBrandContent'> = {}, o?: RequestOptions) => api.json('getBrandContent', {}, { query }, o),
    /** One brand's content by its internal id. */
    brand: (brandId: number, query: Query<'getBrandContentById'> = {}, o?: RequestOptions) =>
      api.json('getBrandContentById', { brandId }, { query }, o),
    features: (insuranceContractId: number, o?: RequestOptions) =>
      api.json('getFeatureSwitches', { insuranceContractId }, {}, o),
    /** What the PDS is (title, version, size…): it describes the document `pds` answers. */
    pdsSummary: (insuranceContractId: number, query: Query<'getPdsSummary'> = {}, o?: RequestOptions) =>
      api.json('getPdsSummary', { insuranceContractId }, { query }, o),
    /** The Product Disclosure Statement itself: the PDF's bytes. */
    pds: (insuranceContractId: number, query: Query<'getPds'> = {}, o?: RequestOptions) =>
      api.bytes('getPds', { insuranceContractId }, { query, accept: 'application/pdf' }, o),
  };
}

export type Products = ReturnType<typeof productsOf>;
