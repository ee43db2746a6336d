import { searchKey } from '../../catalogue/screening.js';
import type { ConditionEntry } from '../model.js';
import { codeOf, namesOf, textIn, type EngineData } from './data.js';

/**
 * Conditions whose name or a synonym in `language` contains the query, compared case- and
 * accent-insensitively, in catalogue order; every condition for a blank query.
 */
export function searchConditions(data: EngineData, language: string, query: string): ConditionEntry[] {
  const key = searchKey(query);
  return data.declarable
    .filter((d) => {
      if (!key) return true;
      const name = textIn(namesOf(d), language);
      const synonyms = d.kind === 'RULE' ? (d.rule.synonyms[language] ?? []) : [];
      return [name, ...synonyms].some((text) => searchKey(text).includes(key));
    })
    .map((d) => ({ code: codeOf(d), name: textIn(namesOf(d), language) }));
}
