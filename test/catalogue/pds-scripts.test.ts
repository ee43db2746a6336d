import { describe, expect, it } from 'vitest';
import { validateCatalogue } from '../../src/catalogue/compile.js';
import { renderPds } from '../../src/catalogue/pds-pdf.js';
import { pdfText } from '../documents/pdf-text.js';

describe('PDS render, every script', () => {
  it('draws and gives back section text in any script, no letter as ?', async () => {
    const { catalogue } = await validateCatalogue('catalogue');
    const brand = catalogue!.brands[0]!;
    const contract = brand.brand.insuranceContracts[0]!;
    const doc = contract.pdsDocuments[0]!;
    const sections = [
      { heading: 'Κάλυψη · Покрытие', body: 'Ασφάλιση ταξιδιού για την Ελένη. Страхование путешествий.' },
      { heading: '保障内容', body: '旅行保险涵盖医疗费用和行程取消。海外旅行保険は医療費をカバーします。여행자 보험.' },
      { heading: 'التغطية', body: 'تأمين السفر يغطي النفقات الطبية. ביטוח נסיעות לחו״ל.' },
      { heading: 'कवरेज', body: 'यात्रा बीमा चिकित्सा खर्च को कवर करता है। ประกันการเดินทางครอบคลุมค่ารักษาพยาบาล' },
    ];
    const bytes = await renderPds(brand, contract.insuranceContractId, { ...doc, title: 'Wording — 条款', sections }, new Date(0));
    const text = (await pdfText(bytes)).replace(/\s+/g, ' ');
    for (const expected of ['Κάλυψη', 'Покрытие', '保障内容', 'التغطية', 'कवरेज', 'Ασφάλιση', 'Страхование', '여행자', 'ביטוח', 'ประกันการเดินทาง'])
      expect(text).toContain(expected);
    expect(text).not.toContain('?');
    expect(bytes.length).toBeLessThan(150 * 1024);
  });
});
