import type { Generated } from 'kysely';

/**
 * Policy tables. A header per policy, a detail per transaction (purchase, amendment,
 * cancellation); travellers, options and money hang off the detail they were written by.
 * Money is integer minor units; structured snapshots (plan, currency, address) are JSON text.
 */
export interface PoliciesTables {
  policy_number_counter: PolicyNumberCounterTable;
  policy_header: PolicyHeaderTable;
  policy_detail: PolicyDetailTable;
  policy_traveller: PolicyTravellerTable;
  policy_option: PolicyOptionTable;
  policy_financial_value: PolicyFinancialValueTable;
}

/** The last number handed out per (prefix, country, year); see policy-number.ts. */
export interface PolicyNumberCounterTable {
  id: Generated<number>;
  prefix: string;
  country: string;
  year: number;
  last_value: number;
}

export interface PolicyHeaderTable {
  id: Generated<number>;
  policy_number: string;
  brand_code: string;
  partner_id: number;
  customer_user_id: number;
  quote_id: string;
  plan_json: string;
  currency_json: string;
  status_id: number;
  status: string;
  sequence_number: number;
  presentation_time_zone_code: string;
  destination_region: string | null;
  destination_codes_json: string;
  destination_names_json: string;
  display_destination_description: string | null;
  reference_policy_wording_id: number | null;
  regulatory_wording_translation_name: string | null;
  binder_id: number | null;
  excess_minor: number;
  external_memberships_json: string;
  policy_document_access_guid: string;
  /** The partner's booking reference given with the quote (operators search by it); null when none. */
  booking_reference: string | null;
  created_at: string;
  created_by_user_id: number;
  updated_at: string;
  updated_by_user_id: number;
}

export interface PolicyDetailTable {
  id: Generated<number>;
  policy_header_id: number;
  sequence_number: number;
  policy_detail_number: string;
  action_type_id: number;
  action_type: string;
  status_id: number;
  status: string;
  ip_address: string | null;
  ip_address_country: string | null;
  user_agent: string | null;
  departure_date: string;
  cover_end_date: string;
  address_json: string;
  specified_items_json: string;
  adventure_level: string | null;
  adventure_activities_json: string;
  payment_reference: string | null;
  /** CARD or ON_ACCOUNT (kernel/money/payment-methods.ts); CARD for rows written before on-account existed. */
  payment_method: Generated<string>;
  created_at: string;
  created_by_user_id: number;
  updated_at: string;
  updated_by_user_id: number;
}

export interface PolicyTravellerTable {
  id: Generated<number>;
  policy_header_id: number;
  policy_detail_id: number;
  /** `traveller` or `dependent`. */
  role: string;
  guid: string;
  display_order: number;
  is_primary: number;
  title: string | null;
  first_name: string;
  surname: string;
  age: number | null;
  email_address: string | null;
  land_line_phone_number: string | null;
  mobile_number: string | null;
  date_of_birth: string | null;
  travel_clear_json: string | null;
}

export interface PolicyOptionTable {
  id: Generated<number>;
  policy_header_id: number;
  policy_detail_id: number;
  plan_id: number;
  option_type_id: number;
  name: string;
  description: string | null;
  display_order: number;
}

export interface PolicyFinancialValueTable {
  id: Generated<number>;
  policy_header_id: number;
  policy_detail_id: number;
  /** 1 premium, 2 discount, 3 tax, 4 donation (see service.ts). */
  transaction_type_id: number;
  /** The tax's name for tax rows. */
  name: string | null;
  amount_minor: number;
  option_type_id: number | null;
  traveller_guid: string | null;
  dependent_guid: string | null;
}

declare module '../db/database.js' {
  /** This area's tables, part of the one `Database` type (db/ imports no area). */
  interface Database extends PoliciesTables {}
}
