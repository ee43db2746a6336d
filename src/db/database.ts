import type { Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { CatalogueTables } from '../catalogue/tables.js';
import type { QuotesTables } from '../quotes/tables.js';
import type { AuthTables } from '../auth/tables.js';
import type { IdempotencyTables } from '../idempotency/tables.js';
import type { PaymentsTables } from '../payments/tables.js';
import type { PoliciesTables } from '../policies/tables.js';
import type { PurchasesTables } from '../purchases/tables.js';
import type { PolicyChangesTables } from '../policy-changes/tables.js';
import type { OutboxTables } from '../outbox/tables.js';
import type { MailTables } from '../mail/tables.js';
import type { DocumentsTables } from '../documents/tables.js';
import type { EventsTables } from '../events/tables.js';
import type { WebhooksTables } from '../webhooks/tables.js';

/**
 * The one description of every table. Portable column rules (SQLite and PostgreSQL alike):
 * timestamps are ISO 8601 UTC text, flags are integers 0/1, structured values are JSON text,
 * money is an integer count of minor units.
 */
export interface Database
  extends
    AuthTables,
    CatalogueTables,
    QuotesTables,
    PaymentsTables,
    IdempotencyTables,
    PoliciesTables,
    PurchasesTables,
    PolicyChangesTables,
    OutboxTables,
    MailTables,
    DocumentsTables,
    EventsTables,
    WebhooksTables {
  brand: BrandTable;
}

export interface BrandTable {
  id: Generated<number>;
  code: string;
  name: string;
  created_at: string;
}
export type BrandRow = Selectable<BrandTable>;
export type NewBrandRow = Insertable<BrandTable>;

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** What a repository function runs on: the pool, or a transaction the caller opened. */
export type Executor = Db | Tx;
