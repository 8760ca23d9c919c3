import { countWords, type ExtractedRecord, type ExtractOutputs } from '../extract';
import { asksModel } from '../extract/spec';
import type { ExtractSpec } from '../extract/spec-schema';
import { sha256Hex } from '../util/hash';
import { type PdfMetadata, pdfMarkdown, pdfText, pdfTitle } from './document';
import type { PdfRead } from './read';

/** A PDF's record: an HTML page's, with the PDF's own metadata. */
export type PdfRecord = Omit<ExtractedRecord, 'metadata'> & { metadata?: PdfMetadata };

/** A PDF as a page: the facts on its row, and its record and outputs when the crawl extracts. */
export interface PdfExtract {
  title: string | null;
  description: string | null;
  language: string | null;
  wordCount: number;
  /** SHA-256 (hex) of its text; of its bytes when it has no text (unreadable, scanned), so that a change still shows. */
  contentHash: string;
  warnings: string[];
  /** Only when the crawl extracts: what its spec asks for (markdown, text, metadata, links). */
  record: PdfRecord | null;
  outputs: ExtractOutputs;
}

/**
 * What a read PDF gives: title (Info Title, first line, file name), word count and content hash always; with a
 * spec, the outputs it asks for that a PDF has (markdown with a heading per page, text, metadata, links; no html,
 * images, fields or JSON-LD).
 */
export async function pdfExtract(
  read: PdfRead,
  body: Uint8Array,
  url: string,
  spec: ExtractSpec | null | undefined,
): Promise<PdfExtract> {
  const text = pdfText(read.pages);
  const facts = {
    title: pdfTitle(read.info, read.pages, url),
    description: read.info?.subject ?? null,
    language: read.info?.language ?? null,
    wordCount: countWords(text),
    contentHash: await sha256Hex(text === '' ? body : text),
    warnings: read.warnings,
  };
  if (!spec) return { ...facts, record: null, outputs: {} };
  const wants = (format: ExtractSpec['formats'][number]) => spec.formats.includes(format);
  const outputs: ExtractOutputs = {};
  // The model step (formats json and summary) reads the markdown, as of an HTML page.
  if (wants('markdown') || asksModel(spec.formats)) outputs.markdown = pdfMarkdown(read.pages);
  if (wants('text')) outputs.text = text;
  const metadata: PdfMetadata | null = read.info
    ? { ...read.info, pages: read.totalPages, pagesRead: read.pages.length }
    : null;
  const record: PdfRecord = {
    ...(wants('metadata') && metadata ? { metadata } : {}),
    ...(wants('links') ? { links: read.links } : {}),
    wordCount: facts.wordCount,
    contentHash: facts.contentHash,
    warnings: facts.warnings,
  };
  return { ...facts, record, outputs };
}
