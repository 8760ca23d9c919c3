import { decodeHtml } from '../html/charset';
import { readPage } from '../html/page';
import { sha256Hex } from '../util/hash';
import { type ContentSource, cleanHtml, selectContent } from './content';
import { declaresThread } from './discussion';
import { baseUrlOf, collapse, type DomDocument, parseBounded } from './dom';
import { type FieldValue, readFields, readImages } from './fields';
import { type JsonValue, linkedFacts, readJsonLd } from './json-ld';
import { toMarkdown } from './markdown';
import { type Metadata, readMetadata } from './metadata';
import { declaresProduct, itemtypesOf } from './product';
import { asksModel, PAGE_LIMITS } from './spec';
import type { ExtractSpec } from './spec-schema';

/** What a record says of a page (the outputs markdown, text and html are kept beside it). */
export interface ExtractedRecord {
  metadata?: Metadata;
  jsonLd?: JsonValue[];
  fields?: { [name: string]: FieldValue };
  fieldErrors?: Record<string, string>;
  /** From the language model (formats json and summary), set once the model step has read the page (docs/models.md). */
  json?: unknown;
  summary?: string;
  /** Which model answered, and how: called, its answer reused from the cache, or read by learned selectors. */
  model?: ModelNote;
  links?: string[];
  images?: { src: string; alt: string }[];
  wordCount: number;
  /**
   * SHA-256 (hex) of the content's text, and of the declared fields' values when the spec has fields: the same
   * content, the same hash, whatever else changed on the page (a recrawl counts the page unchanged).
   */
  contentHash: string;
  warnings: string[];
}

/** How a record's json and summary were had. */
interface ModelNote {
  name: string;
  answer: 'model' | 'cached' | 'selectors' | 'none';
}

export interface ExtractOutputs {
  markdown?: string;
  text?: string;
  html?: string;
}

export interface PageExtract {
  record: ExtractedRecord;
  outputs: ExtractOutputs;
  /**
   * Facts kept in D1 whatever the formats: small, and what listings and exports show; and the text of the page's
   * first <h1> (not kept: what duplicates compare besides the content and the title, domain/crawl/duplicates.ts).
   */
  summary: { title: string | null; description: string | null; language: string | null; heading: string | null };
  /** Every link of the page (normalized), for the crawl to follow; null when the page was not parsed (or not whole). */
  links: string[] | null;
  /** The page's first rel=canonical (normalized), if it has one and was parsed whole. */
  canonical: string | null;
  source: ContentSource | null;
  encoding: string;
  /** The content's text (as the `text` format gives it, asked for or not): what similarity sketches are made of. */
  text: string;
}

/** Words of a text: runs of letters or digits, and each ideograph or kana on its own. */
export function countWords(text: string): number {
  return (
    text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}][\p{L}\p{N}\p{M}'’_-]*/gu) ?? []
  ).length;
}

const cap = (text: string, what: string, warnings: string[]) => {
  if (text.length <= PAGE_LIMITS.outputChars) return text;
  warnings.push(`${what}: cut at ${PAGE_LIMITS.outputChars} characters`);
  return text.slice(0, PAGE_LIMITS.outputChars);
};

/** Reads everything the spec asks for that does not change the document: metadata, JSON-LD, fields, links, images. */
function readDocument(document: DomDocument, pageUrl: string, spec: ExtractSpec, warnings: string[]) {
  const base = baseUrlOf(document, pageUrl);
  const jsonLd = readJsonLd(document, warnings);
  const metadata = readMetadata(document, base, linkedFacts(jsonLd));
  const fieldErrors: Record<string, string> = {};
  const root = document.documentElement;
  const fields =
    Object.keys(spec.fields).length > 0
      ? readFields(root, spec.fields, { baseUrl: base, errors: fieldErrors })
      : undefined;
  const page = readPage(document, pageUrl);
  const images = spec.formats.includes('images') ? readImages(root, base) : undefined;
  const { links, title, canonical } = page;
  const itemtypes = itemtypesOf(document);
  const product = declaresProduct(document, jsonLd, metadata.og.type, itemtypes);
  const thread = declaresThread(jsonLd, itemtypes);
  return { base, jsonLd, metadata, fields, fieldErrors, links, canonical, images, title, product, thread };
}

/**
 * Extracts a page as the spec asks: decoded in its own encoding, parsed once, read for metadata, JSON-LD, fields,
 * links and images, then cut down to its content for markdown, text and html. Pages past PAGE_LIMITS.domBytes are
 * not parsed: their record says so, and their links are left to the streaming parser. Never throws for anything
 * the page contains.
 */
export async function extractPage(
  body: Uint8Array,
  contentType: string | null,
  pageUrl: string,
  spec: ExtractSpec,
): Promise<PageExtract> {
  const warnings: string[] = [];
  const { text: html, encoding } = decodeHtml(body, contentType);
  if (body.byteLength > PAGE_LIMITS.domBytes) {
    warnings.push(
      `page of ${body.byteLength} bytes is larger than ${PAGE_LIMITS.domBytes}: not parsed, nothing extracted`,
    );
    const record: ExtractedRecord = { wordCount: 0, contentHash: await sha256Hex(''), warnings };
    return {
      record,
      outputs: {},
      summary: { title: null, description: null, language: null, heading: null },
      links: null,
      canonical: null,
      source: null,
      encoding,
      text: '',
    };
  }
  const { document, whole } = parseBounded(html, warnings);
  const read = readDocument(document, pageUrl, spec, warnings);
  const again = () => parseBounded(html, []).document;
  const { root, source } = selectContent(document, spec, warnings, {
    kind: { product: read.product, site: read.base, thread: read.thread },
    again,
  });
  const text = cap(toMarkdown(root, read.base, 'text', warnings), 'text', warnings);
  const wants = (format: ExtractSpec['formats'][number]) => spec.formats.includes(format);
  const outputs: ExtractOutputs = {};
  // The model step (formats json and summary) reads the markdown: it is made for it, and dropped after if not asked.
  if (wants('markdown') || asksModel(spec.formats))
    outputs.markdown = cap(toMarkdown(root, read.base, 'markdown', warnings), 'markdown', warnings);
  if (wants('text')) outputs.text = text;
  if (wants('html')) outputs.html = cap(cleanHtml(root, read.base), 'html', warnings);
  const record: ExtractedRecord = {
    ...(wants('metadata') ? { metadata: read.metadata } : {}),
    ...(wants('jsonLd') ? { jsonLd: read.jsonLd } : {}),
    ...(read.fields ? { fields: read.fields, fieldErrors: read.fieldErrors } : {}),
    ...(wants('links') ? { links: read.links.slice(0, PAGE_LIMITS.links) } : {}),
    ...(read.images ? { images: read.images } : {}),
    wordCount: countWords(text),
    contentHash: await sha256Hex(read.fields ? `${text}\n${JSON.stringify(read.fields)}` : text),
    warnings,
  };
  const summary = {
    title: read.title ?? read.metadata.title,
    description: read.metadata.description,
    language: read.metadata.language,
    heading: collapse(document.querySelector('h1')?.textContent) || null,
  };
  // A page cut short has its links found by the streaming parser, which reads it all.
  const parsed = whole ? { links: read.links, canonical: read.canonical } : { links: null, canonical: null };
  return { record, outputs, summary, ...parsed, source, encoding, text };
}
