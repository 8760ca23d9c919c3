/** D1 binds at most 100 parameters per statement: every chunked statement is cut to fit. */
const D1_MAX_PARAMS = 100;

/** `items` in slices of `size`. */
function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `?, ?, ?` for n parameters. */
const placeholders = (n: number): string => Array(n).fill('?').join(', ');

/**
 * Multi-row INSERTs of `rows` (each `columns` values), as many rows per statement as the parameter limit
 * allows: `${head} VALUES (...), (...) ${tail}`.
 */
export function multiRowInsert(db: D1Database, head: string, tail: string, columns: number, rows: unknown[][]): D1PreparedStatement[] {
  const row = `(${placeholders(columns)})`;
  return chunks(rows, Math.floor(D1_MAX_PARAMS / columns)).map((chunk) =>
    db.prepare(`${head} VALUES ${chunk.map(() => row).join(', ')} ${tail}`).bind(...chunk.flat()),
  );
}

/**
 * One statement per slice of `values` that fits beside `fixed` leading parameters, with `{in}` in `sql`
 * replaced by the slice's placeholders: `WHERE crawl_id = ? AND url IN ({in})`.
 */
export function chunkedIn(db: D1Database, sql: string, fixed: readonly unknown[], values: readonly unknown[]): D1PreparedStatement[] {
  return chunks(values, D1_MAX_PARAMS - fixed.length).map((chunk) => db.prepare(sql.replace('{in}', placeholders(chunk.length))).bind(...fixed, ...chunk));
}

/**
 * `column` (epoch ms) rounded down to a whole interval; bind the interval (ms) twice. D1 binds numbers as REAL:
 * cast, or the division is not a whole number of intervals.
 */
export const intervalStart = (column: string): string => `(${column} / CAST(? AS INTEGER)) * CAST(? AS INTEGER)`;
