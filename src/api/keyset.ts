import { encodeCursor } from '../domain/output/cursor';

/**
 * The cursor of the page after `rows` in a keyset listing: made from the last row when the page is full,
 * null when the listing ended.
 */
export function nextCursor<T>(rows: readonly T[], limit: number, keyOf: (last: T) => unknown): string | null {
  const last = rows.at(-1);
  return rows.length === limit && last !== undefined ? encodeCursor(keyOf(last)) : null;
}
