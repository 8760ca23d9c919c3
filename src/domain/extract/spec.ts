/** What a crawl (or a scrape) extracts from each HTML page: the outputs it keeps and the fields it declares. */

export const OUTPUT_FORMATS = [
  'markdown',
  'text',
  'html',
  'metadata',
  'jsonLd',
  'links',
  'images',
  // A PNG of the page in a browser (the viewport, or the whole page): stored beside the body, not in the record.
  'screenshot',
  'screenshot@fullPage',
] as const;
type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const FIELD_TYPES = ['text', 'html', 'number', 'url'] as const;
type FieldType = (typeof FIELD_TYPES)[number];

/** A declared field: the first match's value, or every match's with `list`; nested `fields` read each match. */
export interface FieldSpec {
  selector: string;
  /** Read this attribute instead of the text. */
  attr?: string;
  type?: FieldType;
  list?: boolean;
  fields?: Record<string, FieldSpec>;
}

export interface ExtractSpec {
  formats: OutputFormat[];
  /** true: detect the main content; false: the whole body; a selector pins it. */
  mainContent: boolean | { selector: string };
  /** CSS selectors: when given, only these parts of the content are kept (before conversion). */
  include: string[];
  /** CSS selectors removed from the content before conversion. */
  exclude: string[];
  fields: Record<string, FieldSpec>;
}

/** Bounds on a spec, so that one spec cannot make extraction unbounded. */
export const SPEC_LIMITS = {
  /** Fields in all, nested ones included. */
  fields: 100,
  /** Nesting of `fields` inside fields. */
  depth: 4,
  selectors: 50,
  selectorLength: 500,
} as const;

/** Bounds on what one page may cost to extract; past them, work is skipped or cut with a warning. */
export const PAGE_LIMITS = {
  /** HTML larger than this is not parsed into a DOM: links are still found by streaming. */
  domBytes: 4 * 1024 * 1024,
  /** Elements deeper than this are read as text only (markdown, fields); main-content detection is skipped. */
  depth: 256,
  /**
   * Past this many elements main-content detection is skipped and the whole body is used. Set for Readability, which
   * cost more than linearly (100,000 links took 11 s to detect); our extractor is one walk, the cap is kept as a bound.
   */
  detectElements: 10_000,
  /** Matches of a list field kept. */
  listItems: 1000,
  /** Links and images kept in a record. */
  links: 5000,
  jsonLdBlocks: 50,
  jsonLdBytes: 1024 * 1024,
  /** Nesting of a JSON-LD value kept (deeper values are cut). */
  jsonLdDepth: 32,
  /** Characters of one output (markdown, text, html). */
  outputChars: 2 * 1024 * 1024,
} as const;
