/**
 * What a PDF is read into (read.ts reads it with pdf.js): each page's paragraphs from its positioned text items,
 * its Info metadata, and the text, markdown and title made of them. Pure: no parsing here.
 */
import { PAGE_LIMITS } from '../extract/spec';
import { mediaType } from '../html/page';

/** Bounds on what one PDF may cost to read; past them, reading stops with a warning and what was read is kept. */
export const PDF_LIMITS = {
  /** PDFs larger than this are stored unread (see docs/extraction.md for the measured costs behind the caps). */
  bytes: 20 * 1024 * 1024,
  /** Pages read (the first ones). */
  pages: 500,
  /** Wall time of one document's reading; checked between pages, and a single call past it is abandoned. */
  budgetMs: 10_000,
  /** Characters of text kept (as for an HTML page's outputs). */
  textChars: PAGE_LIMITS.outputChars,
  /** Links kept (link annotations and URLs in the text). */
  links: PAGE_LIMITS.links,
  /** Characters of one metadata value. */
  metaChars: 1000,
} as const;

const PDF_TYPES = new Set(['application/pdf', 'application/x-pdf', 'application/acrobat', 'applications/vnd.pdf']);
/** Types a server sends for any file: a body that starts as a PDF is read as one. */
const GENERIC_TYPES = new Set([null, 'application/octet-stream', 'binary/octet-stream', 'application/download']);

/** Whether a response is a PDF: declared so, or sent as a generic type with a body that starts with "%PDF-". */
export function isPdf(contentType: string | null, body?: Uint8Array): boolean {
  const type = mediaType(contentType);
  if (PDF_TYPES.has(type ?? '')) return true;
  if (!GENERIC_TYPES.has(type) || !body) return false;
  return body.byteLength >= 5 && String.fromCharCode(...body.subarray(0, 5)) === '%PDF-';
}

/** A piece of text as pdf.js places it: its string, baseline y (PDF space, growing upwards), height, line end. */
export interface PdfTextItem {
  str: string;
  y: number;
  height: number;
  hasEOL: boolean;
}

interface Line {
  text: string;
  y: number;
  height: number;
}

/** Items joined into lines: a line ends at an end-of-line mark or where the next item sits on another baseline. */
function linesOf(items: PdfTextItem[]): Line[] {
  const lines: Line[] = [];
  let current: Line | null = null;
  const end = () => {
    if (current && current.text.trim() !== '')
      lines.push({ ...current, text: current.text.replace(/\s+/g, ' ').trim() });
    current = null;
  };
  for (const item of items) {
    const other: Line | null = current;
    if (other !== null && Math.abs(item.y - other.y) > Math.max(item.height, other.height, 1) / 2) end();
    if (current === null) current = { text: '', y: item.y, height: item.height };
    current.text += item.str;
    current.height = Math.max(current.height, item.height);
    if (item.hasEOL) end();
  }
  end();
  return lines;
}

/**
 * A page's paragraphs: lines joined by a space, a new paragraph where the gap to the next line is more than 1.5 line
 * heights (a blank line) or the text goes back up the page (a new column or block).
 */
export function pageParagraphs(items: PdfTextItem[]): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  let previous: Line | null = null;
  for (const line of linesOf(items)) {
    const gap = previous ? previous.y - line.y : 0;
    if (previous && (gap > 1.5 * Math.max(previous.height, 1) || gap < 0) && current.length > 0) {
      paragraphs.push(current.join(' '));
      current = [];
    }
    current.push(line.text);
    previous = line;
  }
  if (current.length > 0) paragraphs.push(current.join(' '));
  return paragraphs;
}

/** A document's Info dictionary, as read: strings only, whitespace collapsed, dates in ISO 8601. */
export interface PdfInfo {
  title: string | null;
  author: string | null;
  subject: string | null;
  keywords: string | null;
  creator: string | null;
  producer: string | null;
  language: string | null;
  created: string | null;
  modified: string | null;
}

/** A PDF date ("D:20240301120000+02'00'") in ISO 8601, or null when it is not one. */
export function pdfDate(value: string | null): string | null {
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(Z|[+-]\d{2}'?\d{2}'?|[+-]\d{2})?/.exec(
    value ?? '',
  );
  if (!m) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', zone] = m;
  const offset = !zone || zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(3).replace(/'/g, '') || '00'}`;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The Info dictionary pdf.js gives (any values) read into PdfInfo. */
export function pdfInfo(raw: Record<string, unknown>): PdfInfo {
  const text = (key: string) => {
    const value = raw[key];
    if (typeof value !== 'string') return null;
    const collapsed = value
      .slice(0, PDF_LIMITS.metaChars * 4)
      .replace(/\s+/g, ' ')
      .trim();
    return collapsed === '' ? null : collapsed.slice(0, PDF_LIMITS.metaChars);
  };
  return {
    title: text('Title'),
    author: text('Author'),
    subject: text('Subject'),
    keywords: text('Keywords'),
    creator: text('Creator'),
    producer: text('Producer'),
    language: text('Language'),
    created: pdfDate(text('CreationDate')),
    modified: pdfDate(text('ModDate')),
  };
}

/** The document's text: paragraphs separated by a blank line, pages too. */
export function pdfText(pages: string[][]): string {
  return pages
    .flat()
    .filter((p) => p !== '')
    .join('\n\n');
}

/** A paragraph as Markdown text: characters Markdown would read as markup escaped, a leading marker too. */
function escapeMarkdown(paragraph: string): string {
  return paragraph
    .replace(/[\\*_`[\]<]/g, (c) => `\\${c}`)
    .replace(/^(?:(#{1,6}|[-+>])(?=\s)|(\d{1,9})\.(?=\s))/, (_m, mark, digits) =>
      mark ? `\\${mark}` : `${digits}\\.`,
    );
}

/** The document as Markdown: a "## Page n" heading per page, its paragraphs below; empty when it has no text. */
export function pdfMarkdown(pages: string[][]): string {
  if (pages.every((paragraphs) => paragraphs.length === 0)) return '';
  return pages
    .map((paragraphs, i) => [`## Page ${i + 1}`, ...paragraphs.map(escapeMarkdown)].join('\n\n'))
    .join('\n\n');
}

/** The document's title: its Info Title, else its first line of text (cut at 200 characters), else its file name. */
export function pdfTitle(info: PdfInfo | null, pages: string[][], url: string): string | null {
  if (info?.title) return info.title;
  const first = pages.flat().find((p) => p !== '');
  if (first) return first.length > 200 ? `${first.slice(0, 199)}…` : first;
  const name = new URL(url).pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(name) || null;
  } catch {
    return name || null;
  }
}

/** http(s) URLs written in a text (trailing punctuation left out). */
export function textUrls(text: string): string[] {
  return [...text.matchAll(/\bhttps?:\/\/[^\s<>"'`{}|\\^]+/g)].map((m) => m[0].replace(/[.,;:!?)\]]+$/, ''));
}

/** What a PDF's record says of it as metadata: its Info dictionary, with its pages and how many were read. */
export interface PdfMetadata extends PdfInfo {
  pages: number;
  pagesRead: number;
}
