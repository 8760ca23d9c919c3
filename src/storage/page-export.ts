import type { ExtractSpec } from '../domain/extract/spec-schema';
import { csvRow } from '../domain/output/csv';
import { type ExportRow, PAGE_RECORD_FIELDS, pageRecordsWithKept } from './d1/page-records';
import type { StoredRecord } from './records';
import { SpanReads } from './span-reads';

export type ExportFormat = 'jsonl' | 'csv';

/** Rows read from D1 per step: fewer when each also reads its record from R2. */
const ROWS = 500;
const ROWS_WITH_RECORDS = 100;
/** Records read from R2 at once. */
const RECORD_READS = 6;

/**
 * Extra CSV columns of a crawl that extracts: the extraction facts, one per top-level field, then the model's: one
 * `json.<property>` per top-level property of extract.json's schema (`json`, the whole object, without one), and
 * `summary`.
 */
function extractColumns(spec: ExtractSpec | null | undefined): string[] {
  if (!spec) return [];
  const properties = spec.json?.schema?.properties;
  const json =
    spec.json === undefined
      ? []
      : properties && typeof properties === 'object'
        ? Object.keys(properties).map((p) => `json.${p}`)
        : ['json'];
  const summary = spec.formats.includes('summary') ? ['summary'] : [];
  return ['description', 'language', 'wordCount', 'contentHash', ...Object.keys(spec.fields), ...json, ...summary];
}

/** A model column's value (json, json.<property>, summary) of a record. */
function modelCell(stored: StoredRecord | null, column: string): unknown {
  const record = stored?.record;
  if (column === 'summary') return record?.summary;
  if (column === 'json') return record?.json;
  const json = record?.json;
  return json && typeof json === 'object' && !Array.isArray(json)
    ? Object.entries(json).find(([key]) => `json.${key}` === column)?.[1]
    : undefined;
}

const isModelColumn = (column: string) => column === 'summary' || column === 'json' || column.startsWith('json.');

const cell = (value: unknown): string | number | null =>
  value === null || value === undefined
    ? null
    : typeof value === 'string' || typeof value === 'number'
      ? value
      : typeof value === 'boolean'
        ? String(value)
        : JSON.stringify(value);

function jsonLine(row: ExportRow, stored: StoredRecord | null): string {
  const { recordAt: _where, warnings, contentHash, description, language, ...base } = row;
  const extracted = stored ? { description, language, ...stored.record, ...stored.outputs } : {};
  return `${JSON.stringify({ ...base, contentHash, ...(warnings.length > 0 ? { warnings } : {}), ...extracted })}\n`;
}

function csvLine(row: ExportRow, stored: StoredRecord | null, columns: string[]): string {
  const fields = stored?.record.fields ?? {};
  const extra: Record<string, unknown> = {
    description: row.description,
    language: row.language,
    wordCount: row.wordCount,
    contentHash: row.contentHash,
  };
  return csvRow([
    ...PAGE_RECORD_FIELDS.map((f) => cell(row[f])),
    ...columns.map((c) => cell(c in extra ? extra[c] : isModelColumn(c) ? modelCell(stored, c) : fields[c])),
  ]);
}

/**
 * The records of a step of rows, read from R2 a few at a time (null where a row has none); a record two rows share (a
 * duplicate beside its kept page) is read once.
 */
export function recordsOf(bucket: R2Bucket, rows: readonly ExportRow[]): Promise<(StoredRecord | null)[]> {
  const reads = new SpanReads(bucket, RECORD_READS);
  return Promise.all(rows.map(({ recordAt }) => (recordAt ? reads.record(recordAt) : null)));
}

/**
 * Every page of a crawl, in URL order, as JSONL (one object a line: the page's fields, and for a crawl that
 * extracts, its record and outputs) or CSV (a header row; a crawl that extracts adds its facts and one column per
 * top-level field). An export answers per URL: a duplicate's line has its own fields (`duplicateOf` naming its kept
 * page) and its kept page's record and outputs, read once when both are in one step. Read from D1 a step at a time as the client reads, so an export of millions of pages never
 * sits in memory.
 */
export function streamPageExport(
  db: D1Database,
  bucket: R2Bucket,
  crawlId: string,
  spec: ExtractSpec | null | undefined,
  format: ExportFormat,
): ReadableStream<Uint8Array> {
  const columns = extractColumns(spec);
  const step = spec ? ROWS_WITH_RECORDS : ROWS;
  const encoder = new TextEncoder();
  let after = '';
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (format === 'csv') controller.enqueue(encoder.encode(csvRow([...PAGE_RECORD_FIELDS, ...columns])));
      },
      async pull(controller) {
        if (done) return controller.close();
        const rows = await pageRecordsWithKept(db, { crawlId, afterUrl: after, limit: step });
        const records = spec ? await recordsOf(bucket, rows) : rows.map(() => null);
        const last = rows.at(-1);
        if (last) {
          after = last.url;
          const lines = rows.map((row, i) =>
            format === 'jsonl' ? jsonLine(row, records[i] ?? null) : csvLine(row, records[i] ?? null, columns),
          );
          controller.enqueue(encoder.encode(lines.join('')));
        }
        if (rows.length < step) done = true;
        if (done && !last) controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}
