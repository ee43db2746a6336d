import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { ACTION_TYPE_IDS, POLICY_STATUS, TRANSACTION_TYPE } from '../../src/policies/model.js';
import { policyDetailNumber } from '../../src/policies/policy-number.js';
import type { PoliciesTables } from '../../src/policies/tables.js';
import type { QuoteTable } from '../../src/quotes/tables.js';
import { drawBookingReference, drawEmail, drawSurname, FIRST_NAMES } from './people.js';
import { DESTINATIONS, OPTIONS, type BrandProfile } from './profiles.js';

/** One seeded policy's rows (quote, header, detail, travellers, options, money), as issuance writes them. */

export interface Partner {
  readonly id: number;
  readonly code: string;
  readonly userId: number;
}

/** What one policy is drawn from: its brand, partner, issue time, payment and the batch's PRNG. */
export interface Spec {
  readonly profile: BrandProfile;
  readonly partner: Partner;
  readonly issuedAt: Date;
  readonly onAccount: boolean;
  readonly rand: () => number;
}

type Row<T extends keyof PoliciesTables> = Insertable<PoliciesTables[T]>;
const json = (value: unknown) => JSON.stringify(value);
const DAY = 86_400_000;

type Child<T extends 'policy_traveller' | 'policy_option' | 'policy_financial_value'> = Omit<
  Row<T>,
  'policy_header_id' | 'policy_detail_id'
>;

export function buildPolicy(
  spec: Spec,
  plan: BrandProfile['plans'][number],
  policyNumber: string,
  pick: <T>(items: readonly T[]) => T,
) {
  const { profile, partner, issuedAt, rand } = spec;
  const at = issuedAt.toISOString();
  const departure = new Date(issuedAt.getTime() + Math.floor(rand() * 180) * DAY);
  const end = new Date(departure.getTime() + (plan.isAnnualMultiTrip ? 364 : 2 + Math.floor(rand() * 40)) * DAY);
  const destinations = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(DESTINATIONS)).filter(
    (d, i, all) => all.indexOf(d) === i,
  );
  const adults = 1 + Math.floor(rand() * 2);
  const children = rand() < 0.3 ? 1 + Math.floor(rand() * 2) : 0;
  // Travellers of a policy are often one family: later ones share the first one's surname.
  const familyName = drawSurname(rand);
  const person = (role: 'traveller' | 'dependent', index: number): Child<'policy_traveller'> => {
    const age = role === 'dependent' ? 1 + Math.floor(rand() * 17) : 18 + Math.floor(rand() * 70);
    const firstName = pick(FIRST_NAMES);
    const surname = index === 0 || rand() < 0.6 ? familyName : drawSurname(rand);
    return {
      role,
      guid: `${role}-${index + 1}`,
      display_order: index + 1,
      is_primary: role === 'traveller' && index === 0 ? 1 : 0,
      title: null,
      first_name: firstName,
      surname,
      age,
      email_address: index === 0 && role === 'traveller' ? drawEmail(rand, firstName, surname) : null,
      land_line_phone_number: null,
      mobile_number: null,
      date_of_birth: `${issuedAt.getUTCFullYear() - age - 1}-0${1 + Math.floor(rand() * 9)}-1${Math.floor(rand() * 9)}`,
      travel_clear_json: null,
    };
  };
  const people = [
    ...Array.from({ length: adults }, (_, i) => person('traveller', i)),
    ...Array.from({ length: children }, (_, i) => person('dependent', i)),
  ];
  const options = OPTIONS.filter(() => rand() < 0.3).map((o, i): Child<'policy_option'> => ({
    plan_id: plan.planId,
    option_type_id: o.optionTypeId,
    name: o.name,
    description: null,
    display_order: i + 1,
  }));
  const premium = 5_000 + Math.floor(rand() * 120_000) * adults;
  const discount = rand() < 0.2 ? Math.floor(premium / 10) : 0;
  const taxes = profile.taxes.map((t) => ({
    name: t.name,
    amount: Math.round(((premium - discount) * t.percent) / 100),
  }));
  const money = (type: number, amount: number, name: string | null = null): Child<'policy_financial_value'> => ({
    transaction_type_id: type,
    name,
    amount_minor: amount,
    option_type_id: null,
    traveller_guid: null,
    dependent_guid: null,
  });
  const quoteId = randomUUID();
  const { currency, ...planJson } = plan;
  const province = profile.home.provinces.length > 0 ? pick(profile.home.provinces) : undefined;
  const address = {
    addressLine1: `${1 + Math.floor(rand() * 300)} Example St`,
    postalCode: String(1000 + Math.floor(rand() * 8999)),
    provinceCode: province,
    countryCode: profile.home.countryCode,
    countryName: profile.home.countryName,
  };
  const header: Row<'policy_header'> = {
    policy_number: policyNumber,
    brand_code: profile.brandCode,
    partner_id: partner.id,
    customer_user_id: 0,
    quote_id: quoteId,
    plan_json: json(planJson),
    currency_json: json(currency),
    status_id: POLICY_STATUS.Active,
    status: 'Active',
    sequence_number: 1,
    presentation_time_zone_code: profile.zone,
    destination_region: destinations[0]!.region,
    destination_codes_json: json(destinations.map((d) => d.code)),
    destination_names_json: json(destinations.map((d) => d.name)),
    display_destination_description: destinations.map((d) => d.name).join(', '),
    reference_policy_wording_id: null,
    regulatory_wording_translation_name: null,
    binder_id: null,
    excess_minor: pick([0, 10_000, 25_000]),
    external_memberships_json: '[]',
    policy_document_access_guid: randomUUID(),
    booking_reference: drawBookingReference(rand),
    created_at: at,
    created_by_user_id: partner.userId,
    updated_at: at,
    updated_by_user_id: partner.userId,
  };
  const detail: Omit<Row<'policy_detail'>, 'policy_header_id'> = {
    sequence_number: 1,
    policy_detail_number: policyDetailNumber(policyNumber, 1),
    action_type_id: ACTION_TYPE_IDS.Purchase,
    action_type: 'Purchase',
    status_id: POLICY_STATUS.Active,
    status: 'Active',
    ip_address: '203.0.113.9',
    ip_address_country: profile.home.countryCode,
    user_agent: 'partner-site/1.0',
    departure_date: departure.toISOString().slice(0, 10),
    cover_end_date: end.toISOString().slice(0, 10),
    address_json: json(address),
    specified_items_json: '[]',
    adventure_level: null,
    adventure_activities_json: '[]',
    payment_reference: spec.onAccount ? null : `pay_${quoteId.slice(0, 8)}`,
    payment_method: spec.onAccount ? 'ON_ACCOUNT' : 'CARD',
    created_at: at,
    created_by_user_id: partner.userId,
    updated_at: at,
    updated_by_user_id: partner.userId,
  };
  const quote: Insertable<QuoteTable> = {
    public_id: quoteId,
    brand_code: profile.brandCode,
    partner_id: partner.id,
    partner_code: partner.code,
    stage: 'PAYMENT',
    quote_type: plan.isAnnualMultiTrip ? 'MULTITRIP' : 'SINGLETRIP',
    client_session_id: null,
    customer_user_id: 0,
    input_json: json({
      quoteType: plan.isAnnualMultiTrip ? 'MULTITRIP' : 'SINGLETRIP',
      planId: plan.planId,
      departureDate: detail.departure_date,
      returnDate: detail.cover_end_date,
      destinationCountryCodes: destinations.map((d) => d.code),
      policyHolders: people.map((p) => ({ guid: p.guid, age: p.age, isDependent: p.role === 'dependent' })),
    }),
    pricing_json: json({
      currencyCode: currency.code,
      priceResults: [],
      prices: [{ planId: plan.planId, totalPrice: premium - discount + taxes.reduce((s, t) => s + t.amount, 0) }],
    }),
    validation_json: json({ isValid: true, errors: [] }),
    client_info_json: null,
    priced_version: 'seeded',
    has_config_changed: 0,
    is_purchase_initiated: 1,
    is_purchased: 1,
    policy_number: policyNumber,
    revision: 1,
    evaluated_at: at,
    created_at: at,
    updated_at: at,
    created_by_user_id: partner.userId,
    created_by_username: 'seeded',
    updated_by_user_id: partner.userId,
    updated_by_username: 'seeded',
  };
  return {
    quote,
    header,
    detail,
    people,
    options,
    money: [
      money(TRANSACTION_TYPE.Premium, premium),
      money(TRANSACTION_TYPE.Discount, discount),
      ...taxes.map((t) => money(TRANSACTION_TYPE.Tax, t.amount, t.name)),
      money(TRANSACTION_TYPE.Donation, 0),
    ],
  };
}
