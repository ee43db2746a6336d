/**
 * Keyset paging (issue 31, the console's lists): a page is "the next `limit` rows after this key",
 * the key being the last row's sort value and a unique id, so a page costs one index range
 * whatever its depth and rows added meanwhile never shift what the next page shows.
 */
export interface After {
  /** The sort value of the last row shown (a timestamp, a code). */
  readonly at: string;
  /** That row's unique id: the tie-breaker between rows with the same `at`. */
  readonly id: string;
}

export interface KeysetPage<T> {
  readonly items: readonly T[];
  /** Where the next page starts; absent on the last page. */
  readonly next?: After;
}

/** The most rows a page may ask for. */
export const MAX_PAGE_SIZE = 100;

/** A page's `after` as one query-string value: `<at>~<id>` (neither half is empty). */
export function encodeAfter(after: After): string {
  return `${after.at}~${after.id}`;
}

/** The `after` of a query string; undefined when absent or not of that form. */
export function decodeAfter(text: string | undefined): After | undefined {
  if (text === undefined) return undefined;
  const cut = text.indexOf('~');
  if (cut <= 0 || cut === text.length - 1 || text.length > 300) return undefined;
  return { at: text.slice(0, cut), id: text.slice(cut + 1) };
}

/**
 * The page from rows read with `limit + 1`: the extra row only says that another page follows,
 * which then starts after the last row kept.
 */
export function pageOf<T>(rows: readonly T[], limit: number, keyOf: (item: T) => After): KeysetPage<T> {
  if (rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  return { items, next: keyOf(items[items.length - 1] as T) };
}
