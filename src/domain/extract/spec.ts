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
  // From a language model, over the page's main content as markdown (docs/models.md): JSON by schema or prompt, and
  // a summary; kept in the record.
  'json',
  'summary',
] as const;

/** Whether a spec asks a language model for anything. */
export const asksModel = (formats: readonly string[]): boolean => formats.some((f) => f === 'json' || f === 'summary');

/**
 * text: whitespace collapsed, but the line breaks of code (`pre`) kept; code: the text verbatim (a code block as
 * written, line numbers dropped); html: the inner HTML; number and url: parsed.
 */
export const FIELD_TYPES = ['text', 'code', 'html', 'number', 'url'] as const;

/** Bounds on a spec, so that one spec cannot make extraction unbounded. */
export const SPEC_LIMITS = {
  /** Fields in all, nested ones included. */
  fields: 100,
  /** Nesting of `fields` inside fields. */
  depth: 4,
  selectors: 50,
  selectorLength: 500,
  /** Characters of a prompt (extract.json.prompt, extract.summary.prompt). */
  promptChars: 4000,
} as const;

/** Bounds on what one page may cost to extract; past them, work is skipped or cut with a warning. */
export const PAGE_LIMITS = {
  /** HTML larger than this is not parsed into a DOM: links are still found by streaming. */
  domBytes: 4 * 1024 * 1024,
  /**
   * Parsing is bounded by a counted pre-pass (bound.ts): open tags nested deeper than this are dropped (their content
   * kept, flattened into the element at this depth); past parseElements elements or parseNodes nodes (tags,
   * attributes, comments, character references: each costs linkedom microseconds) the rest of the page is not parsed,
   * and its links are left to the streaming parser. Of 1,120 real pages (Readability's and trafilatura's test sets)
   * the largest has 10,106 elements and 33,947 nodes, and none nests deeper than 128; of documentation pages, Python's
   * stdtypes.html has 17,099 elements (cut at 15,000 it lost its tail). Past 20,000, a page of 100,000 links took 1 s of
   * CPU at 30,000 elements (0.66 s at 20,000, 0.48 s at 15,000).
   */
  parseDepth: 512,
  parseElements: 20_000,
  parseNodes: 80_000,
  /** Past this many character references, adjacent text nodes are joined after parsing (the most of 1,120 real pages: 2,616). */
  joinEntities: 10_000,
  /** Elements deeper than this are read as text only (markdown, fields); main-content detection is skipped. */
  depth: 256,
  /**
   * Past this many elements main-content detection is skipped and the whole body is used. Set for Readability, which
   * cost more than linearly (100,000 links took 11 s to detect); our extractor is one walk, the cap is kept as a bound.
   */
  detectElements: 10_000,
  /**
   * Markdown and text: characters joined by the walk, summed over every element (nested content is joined again at
   * each level); past this the rest of the content is read as plain text, so the walk stays linear.
   */
  markdownWork: 8 * 1024 * 1024,
  /** Tables nested in tables rendered as GFM tables; deeper ones are read as blocks (GFM has no nested tables). */
  markdownTables: 8,
  /** Characters kept of a title, description or other metadata value (whitespace collapsed first). */
  metaChars: 32_768,
  /** <meta> elements read (the first ones); real pages have a few dozen. */
  metaTags: 1000,
  /**
   * Work of declared fields in all: characters read (a match's text or HTML) plus elements visited; nested matches
   * read the same subtree again. Past this, the fields left are null with an error.
   */
  fieldWork: 1_000_000,
  /** Elements that declared fields copy in all, to read the lines of code blocks in a match. */
  fieldElements: 50_000,
  /** Matches of a list field kept. */
  listItems: 1000,
  /** Links and images kept in a record. */
  links: 5000,
  jsonLdBlocks: 50,
  jsonLdBytes: 1024 * 1024,
  /** A JSON-LD block nested deeper than this is not parsed at all (JSON.parse's cost grows with nesting). */
  jsonLdParseDepth: 10_000,
  /** Nesting of a JSON-LD value kept (deeper values are cut). */
  jsonLdDepth: 32,
  /** Characters of one output (markdown, text, html). */
  outputChars: 2 * 1024 * 1024,
} as const;
