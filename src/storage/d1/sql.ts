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

/** JSON of the rows bound to one statement stays under this (D1 caps a bound string at 2 MB; statements at 100 KB of SQL). */
const JSON_ROWS_MAX_BYTES = 1_000_000;

/**
 * INSERTs of `rows` (arrays of `columns.length` values) bound as one JSON array each: `${head} SELECT value->>0, ...
 * FROM json_each(?) ${tail}`. A chunk of a hundred pages is one statement with one parameter instead of dozens of
 * 100-parameter statements; a statement is cut only when its JSON passes JSON_ROWS_MAX_BYTES.
 */
export function jsonRowsInsert(
  db: D1Database,
  head: string,
  columns: number,
  tail: string,
  rows: readonly unknown[][],
): D1PreparedStatement[] {
  const select = Array.from({ length: columns }, (_, i) => `value->>${i}`).join(', ');
  // WHERE true: an upsert's ON CONFLICT after a SELECT needs it (SQLite's parsing ambiguity).
  const sql = `${head} SELECT ${select} FROM json_each(?) WHERE true ${tail}`;
  const statements: D1PreparedStatement[] = [];
  let slice: string[] = [];
  let bytes = 0;
  const flush = () => {
    if (slice.length > 0) statements.push(db.prepare(sql).bind(`[${slice.join(',')}]`));
    slice = [];
    bytes = 0;
  };
  for (const row of rows) {
    const json = JSON.stringify(row);
    if (bytes + json.length > JSON_ROWS_MAX_BYTES) flush();
    slice.push(json);
    bytes += json.length + 1;
  }
  flush();
  return statements;
}

/**
 * One statement per slice of `values` that fits beside `fixed` leading parameters, with `{in}` in `sql`
 * replaced by the slice's placeholders: `WHERE crawl_id = ? AND url IN ({in})`.
 */
export function chunkedIn(
  db: D1Database,
  sql: string,
  fixed: readonly unknown[],
  values: readonly unknown[],
): D1PreparedStatement[] {
  return chunks(values, D1_MAX_PARAMS - fixed.length).map((chunk) =>
    db.prepare(sql.replace('{in}', placeholders(chunk.length))).bind(...fixed, ...chunk),
  );
}

/**
 * `column` (epoch ms) rounded down to a whole interval; bind the interval (ms) twice. D1 binds numbers as REAL:
 * cast, or the division is not a whole number of intervals.
 */
const intervalStart = (column: string): string => `(${column} / CAST(? AS INTEGER)) * CAST(? AS INTEGER)`;

/**
 * How many rows `from` (a table and a filter with one parameter, the crawl's id) holds per interval of `column` (epoch
 * ms): each interval's start and its count.
 */
export async function perInterval(
  db: D1Database,
  { column, from }: { column: string; from: string },
  crawlId: string,
  seconds: number,
): Promise<{ at: number; n: number }[]> {
  const step = seconds * 1000;
  const sql = `SELECT ${intervalStart(column)} AS at, COUNT(*) AS n FROM ${from} GROUP BY 1`;
  return (await db.prepare(sql).bind(step, step, crawlId).all<{ at: number; n: number }>()).results;
}
