import type { PageRecord, SegmentRange, Span } from '../../types';

/**
 * The pages table, mapped by name: every field of a PageRecord with the columns it is stored in, how a row's values
 * are read back into it (checked, not assumed) and how it is written. Queries select, insert and update columns
 * through this one declaration, so a value cannot land in another field's column.
 */

/** A page row read back: every field (an optional one of PageRecord reads as null where its columns are NULL). */
type StoredFields = Required<PageRecord>;
export type PageField = keyof StoredFields;

/** A view of page rows: the fields a query selected, each present. */
export type PageOf<K extends PageField> = Pick<StoredFields, K>;

/** A row as D1 returns it: column name to value. */
type Row = Record<string, unknown>;
type ColumnValue = string | number | null;

/** How one field is stored: its columns, read back from a row and written as their values (in the columns' order). */
interface Mapping<F extends PageField> {
  columns: readonly string[];
  read: (row: Row) => StoredFields[F];
  write: (value: PageRecord[F]) => ColumnValue[];
}

class PageRowError extends Error {
  constructor(column: string, value: unknown) {
    super(`pages.${column} holds ${JSON.stringify(value)}, not what the column stores`);
  }
}

type Reader<T> = (value: unknown, column: string) => T;

/** How a value of type T is stored (a field's Mapping, before it is given to the field). */
interface Stored<T> {
  columns: readonly string[];
  read: (row: Row) => T;
  write: (value: T | undefined) => ColumnValue[];
}

const text: Reader<string> = (value, column) => {
  if (typeof value === 'string') return value;
  throw new PageRowError(column, value);
};

const integer: Reader<number> = (value, column) => {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  throw new PageRowError(column, value);
};

const fraction: Reader<number> = (value, column) => {
  if (typeof value === 'number' && value >= 0 && value <= 1) return value;
  throw new PageRowError(column, value);
};

const orNull =
  <T>(read: Reader<T>): Reader<T | null> =>
  (value, column) =>
    value === null ? null : read(value, column);

const CHANGES = ['new', 'changed', 'unchanged'] as const;
const DUPLICATE_REASONS = ['canonical', 'content', 'similar'] as const;

const duplicateReason: Reader<StoredFields['duplicateReason']> = (value, column) => {
  if (value === null) return null;
  const found = DUPLICATE_REASONS.find((r) => r === value);
  if (found) return found;
  throw new PageRowError(column, value);
};

const change: Reader<StoredFields['change']> = (value, column) => {
  if (value === null) return null;
  const found = CHANGES.find((c) => c === value);
  if (found) return found;
  throw new PageRowError(column, value);
};

/** A field stored in one column as it is. */
function column<T extends ColumnValue>(name: string, read: Reader<T>): Stored<T> {
  return { columns: [name], read: (row) => read(row[name], name), write: (value) => [value ?? null] };
}

/** A span stored in three columns: the object's key (NULL: no span), the offset and the length. */
function span(key: string, offset: string, length: string): Stored<Span | null> {
  return {
    columns: [key, offset, length],
    read: (row) => {
      const at = orNull(text)(row[key], key);
      return at === null
        ? null
        : { key: at, offset: orNull(integer)(row[offset], offset), length: orNull(integer)(row[length], length) };
    },
    write: (at) => [at?.key ?? null, at?.offset ?? null, at?.length ?? null],
  };
}

/** A page's warnings as stored: a JSON array, or NULL for none. */
const warningsColumn = (warnings: readonly string[] | undefined): string | null =>
  warnings && warnings.length > 0 ? JSON.stringify(warnings) : null;

/** A range in the object of the page's body, stored in two columns (NULL: none); its key is the body's r2_key. */
function range(offset: string, length: string): Stored<SegmentRange | null> {
  return {
    columns: [offset, length],
    read: (row) => {
      const at = orNull(integer)(row[offset], offset);
      return at === null ? null : { offset: at, length: integer(row[length], length) };
    },
    write: (at) => [at?.offset ?? null, at?.length ?? null],
  };
}

/** A page's stored warnings (a JSON array of strings), read back; anything else is no warnings. */
function parseWarnings(json: string | null): string[] {
  if (json === null) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((w): w is string => typeof w === 'string') : [];
  } catch {
    return [];
  }
}

/** The pages table's columns (but crawl_id), by field, in the order rows are written. */
const FIELDS: { [F in PageField]: Mapping<F> } = {
  url: column('url', text),
  status: column('status', integer),
  contentType: column('content_type', orNull(text)),
  title: column('title', orNull(text)),
  depth: column('depth', integer),
  bytes: column('bytes', integer),
  fetchedAt: column('fetched_at', integer),
  bodyAt: span('r2_key', 'body_offset', 'body_length'),
  redirectTo: column('redirect_to', orNull(text)),
  etag: column('etag', orNull(text)),
  lastModified: column('last_modified', orNull(text)),
  change: column('change', change),
  contentHash: column('content_hash', orNull(text)),
  description: column('description', orNull(text)),
  language: column('language', orNull(text)),
  wordCount: column('word_count', orNull(integer)),
  warnings: {
    columns: ['warnings'],
    read: (row) => parseWarnings(orNull(text)(row.warnings, 'warnings')),
    write: (warnings) => [warningsColumn(warnings)],
  },
  recordAt: span('record_key', 'record_offset', 'record_length'),
  linksAt: span('links_key', 'links_offset', 'links_length'),
  rendered: column('rendered', orNull(text)),
  fetchedBodyAt: span('fetched_key', 'fetched_offset', 'fetched_length'),
  screenshotAt: span('screenshot_key', 'screenshot_offset', 'screenshot_length'),
  exchangeAt: range('exchange_offset', 'exchange_length'),
  cachedFrom: column('cached_from', orNull(text)),
  duplicateOf: column('duplicate_of', orNull(text)),
  // A near-duplicate (duplicates: "similar") is stored as a duplicate by content with its similarity (the column's
  // CHECK, migrations/0010, knows 'canonical' and 'content'): read back as 'similar' by its similarity.
  duplicateReason: {
    columns: ['duplicate_reason'],
    read: (row) => {
      const reason = duplicateReason(row.duplicate_reason, 'duplicate_reason');
      return reason === 'content' && typeof row.similarity === 'number' ? 'similar' : reason;
    },
    write: (reason) => [reason === 'similar' ? 'content' : (reason ?? null)],
  },
  similarity: column('similarity', orNull(fraction)),
};

const isField = (name: string): name is PageField => name in FIELDS;

/** Every field, in the order of FIELDS. */
export const PAGE_FIELDS: readonly PageField[] = Object.keys(FIELDS).filter(isField);

/** The columns of `fields`, in the order of their values (valuesOf). */
export const pageColumns = (fields: readonly PageField[]): string[] => fields.flatMap((f) => FIELDS[f].columns);

/** The columns of `fields`, comma-separated: a SELECT's column list. */
export const columnsOf = (fields: readonly PageField[]): string => pageColumns(fields).join(', ');

/** `column = ?` for the columns of `fields` (an UPDATE's assignments; bind valuesOf the same fields). */
export const assignmentsOf = (fields: readonly PageField[]): string =>
  pageColumns(fields)
    .map((c) => `${c} = ?`)
    .join(', ');

function fieldValues<F extends PageField>(page: Pick<PageRecord, F>, field: F): ColumnValue[] {
  return FIELDS[field].write(page[field]);
}

/** The column values of a page's `fields`, in the order of columnsOf(fields). */
export const valuesOf = <K extends PageField>(page: Pick<PageRecord, K>, fields: readonly K[]): ColumnValue[] =>
  fields.flatMap((field) => fieldValues(page, field));

function readField<F extends PageField>(into: Partial<StoredFields>, field: F, row: Row): void {
  into[field] = FIELDS[field].read(row);
}

/** The fields of a row whose columns it has (a query selects only some). */
function readRow(row: Row): Partial<StoredFields> {
  const page: Partial<StoredFields> = {};
  for (const field of PAGE_FIELDS) if (FIELDS[field].columns.every((c) => c in row)) readField(page, field, row);
  return page;
}

const hasFields = <K extends PageField>(
  page: Partial<StoredFields>,
  fields: readonly K[],
): page is Partial<StoredFields> & PageOf<K> => fields.every((f) => page[f] !== undefined);

/** A row read as the view `fields`: throws when the row lacks one of their columns or holds what they do not store. */
export function readPage<K extends PageField>(row: Row, fields: readonly K[]): PageOf<K> {
  const page = readRow(row);
  if (!hasFields(page, fields)) throw new Error(`a page row without the columns of ${fields.join(', ')}`);
  return page;
}
