import { Type, type Static } from 'typebox';

/**
 * The shape of a brand's rate tables: catalogue data (`catalogue/<brand>/rates.yaml`) that the
 * pricing engine reads. Money is an integer count of minor units (cents); percentages are plain
 * numbers (10 = 10 %). Ids here are the `...PriceId`, `ageRangeId`, `optionId` of spec §2.2.
 */

const Money = (description: string) => Type.Integer({ minimum: 0, maximum: 100_000_000_00, description });
const Percentage = (description: string) => Type.Number({ minimum: 0, maximum: 100, description });
const Id = (description: string) => Type.Integer({ minimum: 1, description });

export const RatingRegion = Type.Object({
  code: Type.String({
    minLength: 1,
    description: 'Rating region, e.g. PACIFIC; destinations map to one in the catalogue.',
  }),
  rank: Type.Integer({
    minimum: 0,
    description: 'Higher is costlier; a trip to several regions is rated at the highest rank.',
  }),
});

export const DurationBand = Type.Object({
  id: Id('Band id.'),
  fromDays: Type.Integer({ minimum: 1 }),
  toDays: Type.Integer({ minimum: 1, description: 'Inclusive. Multi-trip plans band on the longest single trip.' }),
});

export const AgeBand = Type.Object({
  id: Id('The ageRangeId of a BasePriceResultDetail.'),
  fromAge: Type.Integer({ minimum: 0 }),
  toAge: Type.Integer({ minimum: 0, description: 'Inclusive.' }),
});

export const BasePrice = Type.Object({
  id: Id('saleListPriceId / netListPriceId of the detail this price produces.'),
  region: Type.String({ minLength: 1 }),
  durationBandId: Type.Integer({ minimum: 1 }),
  ageBandId: Type.Integer({ minimum: 1 }),
  salePrice: Money('Sale list price for one adult traveller, before options, discounts and taxes.'),
});

export const ExcessChoice = Type.Object({
  excess: Money('Excess amount the customer may choose.'),
  priceMultiplier: Type.Number({
    exclusiveMinimum: 0,
    maximum: 5,
    description: 'Applied to the base price; the standard excess has 1.',
  }),
});

/** How a basic option is priced: an amount per policy or per traveller, or a percentage of the base price. */
export const OPTION_RATE_BASES = ['PER_POLICY', 'PER_TRAVELLER', 'PERCENT_OF_BASE'] as const;
export type OptionRateBasis = (typeof OPTION_RATE_BASES)[number];

export const BasicOptionRate = Type.Object({
  optionId: Id('Option id.'),
  optionTypeCode: Type.String({ minLength: 1, description: 'e.g. CRUISE, SNOWSPORTS, RENTALCAREXCESS, MOTORCYCLE.' }),
  name: Type.String({ minLength: 1 }),
  basis: Type.Enum([...OPTION_RATE_BASES], { type: 'string' }),
  amount: Type.Number({
    minimum: 0,
    description: 'Minor units for PER_POLICY / PER_TRAVELLER; a percentage for PERCENT_OF_BASE.',
  }),
  isDefault: Type.Boolean({ description: 'Opted in unless the quote opts out.' }),
  displayOrder: Type.Integer({ minimum: 0 }),
});

export const AdventureLevelRate = Type.Object({
  level: Type.String({
    minLength: 1,
    description: 'e.g. LEVEL1; the highest level any chosen activity needs is charged.',
  }),
  rank: Type.Integer({ minimum: 1 }),
  activityIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1 }),
  pricePerTraveller: Money('Sale price per adult traveller.'),
});

export const SpecifiedItemRate = Type.Object({
  optionId: Id('Option id of specified items cover.'),
  salePricePercentage: Percentage('Price as a percentage of each item value.'),
  minItemValue: Money('Smallest value an item may be specified at.'),
  maxItemValuePerUnit: Money('Largest value of one item.'),
  maxItemValuePerPolicy: Money('Largest total of all items on a policy.'),
  itemTypes: Type.Array(
    Type.Object({ id: Id('Item type id.'), code: Type.String({ minLength: 1 }), name: Type.String({ minLength: 1 }) }),
    {
      minItems: 1,
    },
  ),
});

export const CancellationRate = Type.Object({
  optionId: Id('Option id of cancellation cover.'),
  defaultLimit: Money('Cover limit when the quote names none.'),
  limits: Type.Array(Type.Object({ limit: Money('Cover limit.'), salePrice: Money('Sale price per policy.') }), {
    minItems: 1,
  }),
});

export const PlanRates = Type.Object({
  planCode: Type.String({ minLength: 1, description: 'The plan code (stable across plan versions).' }),
  commissionPercentage: Percentage('Share of the sale price that is commission; net = sale − commission.'),
  standardExcess: Money('Excess when the quote chooses none.'),
  excessChoices: Type.Array(ExcessChoice, { minItems: 1 }),
  dependentPricePercentage: Percentage('A dependent costs this share of an adult of the same band (0 = free).'),
  basePrices: Type.Array(BasePrice, { minItems: 1 }),
  basicOptions: Type.Array(BasicOptionRate),
  adventureActivities: Type.Optional(
    Type.Object({ optionId: Id('Option id.'), levels: Type.Array(AdventureLevelRate, { minItems: 1 }) }),
  ),
  specifiedItems: Type.Optional(SpecifiedItemRate),
  cancellation: Type.Optional(CancellationRate),
});

export const TaxRule = Type.Object({
  taxName: Type.String({ minLength: 1, description: 'e.g. GST, Stamp Duty (NSW).' }),
  homeCountryCode: Type.String({ minLength: 3, maxLength: 3 }),
  provinceCode: Type.Optional(Type.String({ minLength: 1, description: 'Only for holders in this province.' })),
  ratePercentage: Percentage('Tax rate.'),
  base: Type.Enum(['PREMIUM', 'PREMIUM_AND_PRECEDING_TAXES'], {
    type: 'string',
    description: 'What the rate applies to; e.g. Australian stamp duty applies to premium plus GST.',
  }),
  order: Type.Integer({ minimum: 0, description: 'Taxes apply in ascending order.' }),
});

export const Campaign = Type.Object({
  campaignId: Id('Campaign id.'),
  code: Type.String({ minLength: 1, description: 'The published discount code partners send as campaignCode.' }),
  discountPercentage: Percentage('Discount on the sale price of base and options.'),
  validFrom: Type.String({ format: 'date' }),
  validTo: Type.String({ format: 'date', description: 'Inclusive.' }),
  partnerCodes: Type.Optional(
    Type.Array(Type.String(), { description: 'Only these partners; absent = every partner.' }),
  ),
  planCodes: Type.Optional(Type.Array(Type.String(), { description: 'Only these plans; absent = every plan.' })),
});

export const PartnerDiscount = Type.Object({
  partnerCode: Type.String({ minLength: 1 }),
  discountPercentage: Percentage('Discount the partner gives from its commission.'),
});

export const RateTable = Type.Object({
  brandCode: Type.String({ minLength: 1 }),
  version: Type.String({ minLength: 1, description: 'Changes whenever any rate changes.' }),
  currencyCode: Type.String({ minLength: 3, maxLength: 3 }),
  ratingRegions: Type.Array(RatingRegion, { minItems: 1 }),
  durationBands: Type.Array(DurationBand, { minItems: 1 }),
  ageBands: Type.Array(AgeBand, { minItems: 1 }),
  plans: Type.Array(PlanRates, { minItems: 1 }),
  taxes: Type.Array(TaxRule),
  campaigns: Type.Array(Campaign),
  partnerDiscounts: Type.Array(PartnerDiscount),
});
export type RateTable = Static<typeof RateTable>;
export type PlanRates = Static<typeof PlanRates>;
export type TaxRule = Static<typeof TaxRule>;
export type Campaign = Static<typeof Campaign>;
