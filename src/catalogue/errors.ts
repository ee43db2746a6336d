import { Forbidden, InvalidInput, NotFound, Unavailable } from '../kernel/errors.js';

/** Errors of the product catalogue area; each has a stable code partners can branch on. */

export class UnknownPlanCode extends NotFound {
  constructor(planCode: string) {
    super('UNKNOWN_PLAN_CODE', `No plan has code '${planCode}' for this brand.`, { property: 'planCode', value: planCode });
  }
}

export class PlanNotSold extends NotFound {
  constructor(planCode: string, date: string) {
    super('PLAN_NOT_SOLD', `Plan '${planCode}' is not sold on ${date}.`, { property: 'effectiveAt', value: date, tokens: { planCode, date } });
  }
}

export class UnknownPlanId extends NotFound {
  constructor(planId: number) {
    super('UNKNOWN_PLAN_ID', `No plan version has id ${planId} in this insurance contract.`, { property: 'planId', value: String(planId) });
  }
}

export class UnknownInsuranceContract extends NotFound {
  constructor(id: number) {
    super('UNKNOWN_INSURANCE_CONTRACT', `Insurance contract ${id} does not exist for this brand.`, { property: 'insuranceContractId', value: String(id) });
  }
}

export class UnknownBrandId extends NotFound {
  constructor(id: number) {
    super('UNKNOWN_BRAND_ID', `No brand has id ${id}.`, { property: 'brandId', value: String(id) });
  }
}

export class PdsNotFound extends NotFound {
  constructor(id: number) {
    super('PDS_NOT_FOUND', `Insurance contract ${id} has no PDS for this selection.`, { property: 'insuranceContractId', value: String(id) });
  }
}

export class InvalidDate extends InvalidInput {
  constructor(property: string, value: string) {
    super('INVALID_DATE', `'${value}' is not a calendar date (YYYY-MM-DD) or an ISO 8601 date-time.`, { property, value });
  }
}

export class UnknownHomeCountry extends InvalidInput {
  constructor(code: string, property = 'homeAddress.countryCode') {
    super('UNKNOWN_HOME_COUNTRY', `This brand does not sell to residents of '${code}'.`, { property, value: code });
  }
}

export class CatalogueNotLoaded extends Unavailable {
  constructor() {
    super('CATALOGUE_NOT_LOADED', 'No product catalogue has been imported yet.');
  }
}

/** `partnerCode` names another partner than the token's: its reserved terms are not the caller's to see. */
export class PartnerNotAllowed extends Forbidden {
  constructor() {
    super('PARTNER_NOT_ALLOWED', "partnerCode must be the caller's own partner (or left out).", { property: 'partnerCode' });
  }
}
