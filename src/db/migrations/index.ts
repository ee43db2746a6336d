import type { Migration } from 'kysely';
import * as m20261122_0001 from './20261122_0001_brands.js';
import * as m20261122_0100 from './20261122_0100_identity.js';
import * as m20261122_0200 from './20261122_0200_catalogue.js';
import * as m20261122_0300 from './20261122_0300_quotes.js';
import * as m20261122_0400 from './20261122_0400_payments.js';
import * as m20261122_0500 from './20261122_0500_policies.js';
import * as m20261122_0600 from './20261122_0600_purchases.js';
import * as m20261123_0700 from './20261123_0700_index_choice.js';
import * as m20261126_0800 from './20261126_0800_purchase_idempotency_key.js';
import * as m20261127_0900 from './20261127_0900_policy_changes.js';
import * as m20261127_1000 from './20261127_1000_outbox.js';
import * as m20261127_1010 from './20261127_1010_policy_documents.js';
import * as m20261127_1020 from './20261127_1020_sandbox_mail.js';
import * as m20261128_1100 from './20261128_1100_partner_events.js';
import * as m20261129_1000 from './20261129_1000_document_resends.js';
import * as m20261130_1000 from './20261130_1000_delivery_fairness.js';
import * as m20261130_1100 from './20261130_1100_idempotency_key_subject.js';
import * as m20261201_1000 from './20261201_1000_refund_retry_bound.js';
import * as m20261201_1100 from './20261201_1100_outbox_lag_index.js';
import * as m20261202_1000 from './20261202_1000_sandbox_checkout.js';
import * as m20261203_1000 from './20261203_1000_payment_method.js';
import * as m20261203_1200 from './20261203_1200_stripe_events.js';
import * as m20261203_1300 from './20261203_1300_partner_account.js';
import * as m20261203_1400 from './20261203_1400_statements.js';
import * as m20261204_1000 from './20261204_1000_partner_brand_codes.js';
import * as m20261204_1100 from './20261204_1100_screening.js';
import * as m20261204_1200 from './20261204_1200_screening_purge.js';
import * as m20261204_1300 from './20261204_1300_screening_link.js';
import * as m20261205_1000 from './20261205_1000_operator_audit.js';
import * as m20261205_1100 from './20261205_1100_referrals.js';
import * as m20261205_1200 from './20261205_1200_operators.js';
import * as m20261205_1210 from './20261205_1210_operator_unknown_sign_ins.js';
import * as m20261205_1300 from './20261205_1300_policy_notes.js';
import * as m20261205_1400 from './20261205_1400_work_queues.js';
import * as m20261205_1500 from './20261205_1500_amendment_referrals.js';
import * as m20261205_1600 from './20261205_1600_traveller_name_cover.js';

/** Every migration, by name; names sort in the order they apply. Add new ones at the end. */
export const migrations: Record<string, Migration> = {
  '20261122_0001_brands': m20261122_0001,
  '20261122_0100_identity': m20261122_0100,
  '20261122_0200_catalogue': m20261122_0200,
  '20261122_0300_quotes': m20261122_0300,
  '20261122_0400_payments': m20261122_0400,
  '20261122_0500_policies': m20261122_0500,
  '20261122_0600_purchases': m20261122_0600,
  '20261123_0700_index_choice': m20261123_0700,
  '20261126_0800_purchase_idempotency_key': m20261126_0800,
  '20261127_0900_policy_changes': m20261127_0900,
  '20261127_1000_outbox': m20261127_1000,
  '20261127_1010_policy_documents': m20261127_1010,
  '20261127_1020_sandbox_mail': m20261127_1020,
  '20261128_1100_partner_events': m20261128_1100,
  '20261129_1000_document_resends': m20261129_1000,
  '20261130_1000_delivery_fairness': m20261130_1000,
  '20261130_1100_idempotency_key_subject': m20261130_1100,
  '20261201_1000_refund_retry_bound': m20261201_1000,
  '20261201_1100_outbox_lag_index': m20261201_1100,
  '20261202_1000_sandbox_checkout': m20261202_1000,
  '20261203_1000_payment_method': m20261203_1000,
  '20261203_1200_stripe_events': m20261203_1200,
  '20261203_1300_partner_account': m20261203_1300,
  '20261203_1400_statements': m20261203_1400,
  '20261204_1000_partner_brand_codes': m20261204_1000,
  '20261204_1100_screening': m20261204_1100,
  '20261204_1200_screening_purge': m20261204_1200,
  '20261204_1300_screening_link': m20261204_1300,
  '20261205_1000_operator_audit': m20261205_1000,
  '20261205_1100_referrals': m20261205_1100,
  '20261205_1200_operators': m20261205_1200,
  '20261205_1210_operator_unknown_sign_ins': m20261205_1210,
  '20261205_1300_policy_notes': m20261205_1300,
  '20261205_1400_work_queues': m20261205_1400,
  '20261205_1500_amendment_referrals': m20261205_1500,
  '20261205_1600_traveller_name_cover': m20261205_1600,
};
