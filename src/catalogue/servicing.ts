import { minorDigits, toMinor } from '../kernel/money/units.js';
import type { ServicingFile, ServicingOverrideFile } from './file-schemas.js';
import type { BrandCatalogue, BrandServicing, ServicingRules } from './model.js';

/** What a catalogue version without servicing rules answers: no cooling-off, no refund, no amendment. */
export const NO_SERVICING: BrandServicing = {
  defaults: {
    coolingOffDays: 0,
    cancellation: { beforeDeparture: 'NONE', afterDeparture: 'NONE', feeMinor: 0 },
    amendment: {
      feeMinor: 0,
      beforeDeparture: { dates: false, destinations: false, travellers: false, options: false },
      afterDeparture: { extendReturnDate: false },
    },
  },
  plans: {},
};

/** A brand's servicing.yaml compiled: fees from major units of `currencyCode` to minor units, overrides merged. */
export function compileServicing(file: ServicingFile, currencyCode: string): BrandServicing {
  const digits = minorDigits(currencyCode);
  const defaults = rulesOf(file.defaults, digits);
  const plans = Object.fromEntries(
    Object.entries(file.plans ?? {}).map(([code, override]) => [code, merged(defaults, override, digits)]),
  );
  return { defaults, plans };
}

function rulesOf(file: ServicingFile['defaults'], digits: number): ServicingRules {
  const { cancellation, amendment } = file;
  return {
    coolingOffDays: file.coolingOffDays,
    cancellation: {
      beforeDeparture: cancellation.beforeDeparture,
      afterDeparture: cancellation.afterDeparture,
      feeMinor: toMinor(cancellation.fee, digits),
    },
    amendment: {
      feeMinor: toMinor(amendment.fee, digits),
      beforeDeparture: { ...amendment.beforeDeparture },
      afterDeparture: { ...amendment.afterDeparture },
    },
  };
}

/** The plan's override over the defaults, field by field. */
function merged(defaults: ServicingRules, override: ServicingOverrideFile, digits: number): ServicingRules {
  const { cancellation = {}, amendment = {} } = override;
  return {
    coolingOffDays: override.coolingOffDays ?? defaults.coolingOffDays,
    cancellation: {
      beforeDeparture: cancellation.beforeDeparture ?? defaults.cancellation.beforeDeparture,
      afterDeparture: cancellation.afterDeparture ?? defaults.cancellation.afterDeparture,
      feeMinor: cancellation.fee === undefined ? defaults.cancellation.feeMinor : toMinor(cancellation.fee, digits),
    },
    amendment: {
      feeMinor: amendment.fee === undefined ? defaults.amendment.feeMinor : toMinor(amendment.fee, digits),
      beforeDeparture: { ...defaults.amendment.beforeDeparture, ...amendment.beforeDeparture },
      afterDeparture: { ...defaults.amendment.afterDeparture, ...amendment.afterDeparture },
    },
  };
}

/** The servicing rules of a plan code of the brand: its override merged over the brand's defaults. */
export function servicingRulesOf(brand: BrandCatalogue, planCode: string): ServicingRules {
  return brand.servicing.plans[planCode] ?? brand.servicing.defaults;
}
