import { Type, type Static } from 'typebox';
import { Flag, Long, Maybe, Money, Percentage, ShortText, Text } from './common.js';

/**
 * Price types of spec §2.2. Amounts are doubles in major units of the plan's currency; the
 * engine works in integer minor units and `kernel/money/units.ts` converts at the HTTP boundary.
 */

export const TaxComponentResult = Type.Object(
  {
    taxName: Maybe(Text('Tax name, e.g. `GST`, `Stamp Duty (NSW)`.', 100)),
    taxRatePercentage: Maybe(Percentage('Rate in percent.')),
    taxAmount: Maybe(Money('Tax amount.')),
  },
  { title: 'TaxComponentResult', description: 'One tax on a price (spec §2.2 TaxComponentResult).' },
);
export const TaxComponentSummary = Type.Object(TaxComponentResult.properties, {
  title: 'TaxComponentSummary',
  description: 'One tax on a price (spec §2.2 TaxComponentSummary).',
});

const discounts = {
  saleListCommission: Maybe(Money('Commission within the sale price.')),
  netCampaignDiscount: Maybe(Money('Campaign discount on the net price.')),
  saleCampaignDiscount: Maybe(Money('Campaign discount on the sale price.')),
  salePartnerDiscount: Maybe(Money('Partner discount on the sale price.')),
};

export const BasePriceResultDetail = Type.Object(
  {
    age: Maybe(Type.Integer({ description: 'Age of the traveller this line prices.' })),
    ageRangeId: Maybe(Long('Age band.')),
    netListPrice: Maybe(Money('Net list price.')),
    netListPriceId: Maybe(Long('Net price row.')),
    saleListPrice: Maybe(Money('Sale list price.')),
    saleListPriceId: Maybe(Long('Sale price row.')),
    ...discounts,
  },
  { title: 'BasePriceResultDetail', description: 'Base price of one traveller (spec §2.2 BasePriceResultDetail).' },
);

export const BasePriceResult = Type.Object(
  {
    planId: Maybe(Long('Plan.')),
    netListPrice: Maybe(Money('Net list price.')),
    saleListPrice: Maybe(Money('Sale list price.')),
    taxComponents: Maybe(Type.Array(TaxComponentResult)),
    ...discounts,
    priceDetails: Maybe(Type.Array(BasePriceResultDetail)),
  },
  { title: 'BasePriceResult', description: 'Base price of a plan (spec §2.2 BasePriceResult).' },
);

export const OptionPriceResultDetail = Type.Object(
  {
    optionSubTypeCode: Maybe(ShortText('Option sub-type.')),
    itemGuid: Maybe(ShortText('The specified item this line prices.')),
    netListPrice: Maybe(Money('Net list price.')),
    netListPriceId: Maybe(Long('Net price row.')),
    saleListPrice: Maybe(Money('Sale list price.')),
    saleListPriceId: Maybe(Long('Sale price row.')),
    ...discounts,
    saleListPricePercentage: Maybe(Percentage('Price as a percentage of the item value.')),
    minItemValue: Maybe(Money('Smallest item value.')),
    maxItemValuePerUnit: Maybe(Money('Largest value of one item.')),
    specifiedItemTypeId: Maybe(Long('Item type.')),
    specifiedItemTypeCode: Maybe(ShortText('Item type code.')),
    specifiedItemTypeName: Maybe(Text('Item type name.', 100)),
    isDefault: Maybe(Flag('Included unless opted out.')),
  },
  { title: 'OptionPriceResultDetail', description: 'One line of an option price (spec §2.2 OptionPriceResultDetail).' },
);

export const OptionPriceResult = Type.Object(
  {
    optionId: Maybe(Long('Option.')),
    optionTypeCode: Maybe(ShortText('Option type.')),
    policyHolderGuid: Maybe(ShortText('The holder this option is for, if per holder.')),
    netListPrice: Maybe(Money('Net list price.')),
    netListPriceId: Maybe(Long('Net price row.')),
    saleListPrice: Maybe(Money('Sale list price.')),
    saleListPriceId: Maybe(Long('Sale price row.')),
    optionCoverageAmount: Maybe(Money('Cover amount.')),
    minNetListPrice: Maybe(Money('Lowest net price.')),
    maxNetListPrice: Maybe(Money('Highest net price.')),
    isOptionExplicit: Maybe(Flag('The quote chose this option explicitly.')),
    isDefault: Maybe(Flag('Included unless opted out.')),
    maxItemValuePerPolicy: Maybe(Money('Largest total of items on a policy.')),
    minSaleListPrice: Maybe(Money('Lowest sale price.')),
    maxSaleListPrice: Maybe(Money('Highest sale price.')),
    taxComponents: Maybe(Type.Array(TaxComponentResult)),
    ...discounts,
    priceDetails: Maybe(Type.Array(OptionPriceResultDetail)),
  },
  { title: 'OptionPriceResult', description: 'Price of one option (spec §2.2 OptionPriceResult).' },
);

export const QuotePriceResult = Type.Object(
  {
    planId: Maybe(Long('Plan.')),
    standardExcess: Maybe(Money('Standard excess.')),
    campaignId: Maybe(Long('Campaign applied.')),
    campaignDiscountPercentage: Maybe(Percentage('Campaign discount in percent.')),
    basePriceResult: Maybe(BasePriceResult),
    optionPriceResults: Maybe(Type.Array(OptionPriceResult)),
  },
  { title: 'QuotePriceResult', description: 'Detailed price of one plan (spec §2.2 QuotePriceResult).' },
);
export type QuotePriceResult = Static<typeof QuotePriceResult>;

const summaryMoney = {
  price: Maybe(Money('Price.')),
  campaignDiscount: Maybe(Money('Campaign discount.')),
  partnerDiscount: Maybe(Money('Partner discount.')),
};

export const BasePriceSummary = Type.Object(
  { ...summaryMoney, taxComponents: Maybe(Type.Array(TaxComponentSummary)) },
  { title: 'BasePriceSummary', description: 'Base price of a plan, summarised (spec §2.2 BasePriceSummary).' },
);

export const OptionItemPriceSummary = Type.Object(
  { guid: Maybe(ShortText('Item or holder guid.')), ...summaryMoney },
  {
    title: 'OptionItemPriceSummary',
    description: 'Price of one item of an option (spec §2.2 OptionItemPriceSummary).',
  },
);

export const OptionPriceSummary = Type.Object(
  {
    optionId: Maybe(Long('Option.')),
    optionType: Maybe(ShortText('Option type.')),
    policyHolderGuid: Maybe(ShortText('Holder, if per holder.')),
    ...summaryMoney,
    items: Maybe(Type.Array(OptionItemPriceSummary)),
    displayOrder: Maybe(Type.Integer({ description: 'Order to show options in.' })),
  },
  { title: 'OptionPriceSummary', description: 'Price of one option, summarised (spec §2.2 OptionPriceSummary).' },
);

export const QuotePriceSummary = Type.Object(
  {
    planId: Maybe(Long('Plan.')),
    totalPrice: Maybe(Money('Total to pay: base, options and taxes, after discounts.')),
    standardExcess: Maybe(Money('Standard excess.')),
    campaignDiscountPercentage: Maybe(Percentage('Campaign discount in percent.')),
    campaignDiscount: Maybe(Money('Campaign discount.')),
    partnerDiscount: Maybe(Money('Partner discount.')),
    basePrice: Maybe(BasePriceSummary),
    specifiedItemOptionPrice: Maybe(OptionPriceSummary),
    adventureActivitiesOptionPrice: Maybe(OptionPriceSummary),
    basicOptionPrices: Maybe(Type.Array(OptionPriceSummary)),
    tripCancellationPrice: Maybe(OptionPriceSummary),
  },
  {
    title: 'QuotePriceSummary',
    description: 'One available plan with its price for the quoted trip (spec §2.2 QuotePriceSummary).',
  },
);
export type QuotePriceSummary = Static<typeof QuotePriceSummary>;
