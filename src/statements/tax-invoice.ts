import { findPartnerByCode } from '../auth/repository.js';
import { INSURER_ITEMS } from '../catalogue/checks.js';
import { brandOf } from '../catalogue/service.js';
import { renderTaxInvoice, invoiceFileName } from './invoice.js';
import { getStatement, type StatementDeps, type StatementScope } from './service.js';

/** The month's on-account tax invoice: the statement, the brand's insurer from its content, the partner's name. */
export async function getTaxInvoice(
  deps: StatementDeps,
  scope: StatementScope,
  month: string,
): Promise<{ readonly fileName: string; readonly content: Uint8Array }> {
  const statement = await getStatement(deps, scope, month);
  const brand = brandOf(await deps.catalogue.snapshot(), scope.brandCode);
  const language = brand.brand.defaultLanguage;
  const content = new Map((brand.brand.contentItems[language] ?? []).map((item) => [item.type, item.content]));
  const partner = await findPartnerByCode(deps.db, scope.partnerCode);
  const now = deps.clock();
  const end = new Date(statement.period.to);
  const bytes = await renderTaxInvoice(statement, {
    brandName: brand.brand.name,
    language,
    // catalogue validate requires both items; a catalogue imported before that names the brand.
    insurerName: content.get(INSURER_ITEMS.name) ?? brand.brand.name,
    insurerTaxNumber: content.get(INSURER_ITEMS.taxNumber) ?? '—',
    partnerName: partner?.name ?? scope.partnerCode,
    issuedAt: statement.period.status === 'CLOSED' ? end : now,
  });
  return { fileName: invoiceFileName(statement), content: bytes };
}
