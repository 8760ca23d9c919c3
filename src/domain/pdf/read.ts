/**
 * Reads a PDF with pdf.js (unpdf's build for serverless runtimes: no worker thread, no eval): its Info metadata, each
 * page's text as paragraphs, and its links (URI link annotations, and URLs written in its text). Bounded by
 * PDF_LIMITS: bytes, pages, characters, links and wall time. Never throws: what could not be read is a warning.
 */
import { getResolvedPDFJS } from 'unpdf';
import { normalizeUrl } from '../url/normalize';
import { PDF_LIMITS, type PdfInfo, type PdfTextItem, pageParagraphs, pdfInfo, textUrls } from './document';

export interface PdfRead {
  /** Paragraphs of each page read (the first PDF_LIMITS.pages). */
  pages: string[][];
  /** Pages the document has; 0 when it could not be opened. */
  totalPages: number;
  info: PdfInfo | null;
  /** Links found, normalized, in document order, each once. */
  links: string[];
  warnings: string[];
}

export type PdfLimits = { [K in keyof typeof PDF_LIMITS]: number };

type Loading = ReturnType<Awaited<ReturnType<typeof getResolvedPDFJS>>['getDocument']>;
type Doc = Awaited<Loading['promise']>;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 200);

/** Text items as pdf-read positions them (marked-content entries have no string and are left out). */
function textItems(items: readonly object[]): PdfTextItem[] {
  const out: PdfTextItem[] = [];
  for (const item of items) {
    if (!('str' in item) || typeof item.str !== 'string') continue;
    const transform = 'transform' in item && Array.isArray(item.transform) ? item.transform : [];
    const y = typeof transform[5] === 'number' ? transform[5] : 0;
    const height = 'height' in item && typeof item.height === 'number' ? item.height : 0;
    out.push({ str: item.str, y, height, hasEOL: 'hasEOL' in item && item.hasEOL === true });
  }
  return out;
}

/** What reading has gathered so far, with the budget it runs under. */
interface Reading {
  read: PdfRead;
  limits: PdfLimits;
  url: string;
  started: number;
  chars: number;
  seen: Set<string>;
}

function addLink(reading: Reading, href: unknown): void {
  if (typeof href !== 'string' || reading.read.links.length >= reading.limits.links) return;
  const url = normalizeUrl(href, reading.url);
  if (url === null || reading.seen.has(url)) return;
  reading.seen.add(url);
  reading.read.links.push(url);
}

/** One page: its paragraphs (within the characters left) and its links. Returns false once the text cap is reached. */
async function readPage(reading: Reading, doc: Doc, number: number): Promise<boolean> {
  const page = await doc.getPage(number);
  try {
    const content = await page.getTextContent();
    let paragraphs = pageParagraphs(textItems(content.items));
    const size = paragraphs.reduce((sum, p) => sum + p.length + 2, 0);
    const left = reading.limits.textChars - reading.chars;
    const whole = size <= left;
    if (!whole) paragraphs = [paragraphs.join('\n\n').slice(0, Math.max(0, left))];
    reading.chars += Math.min(size, left);
    reading.read.pages.push(paragraphs);
    for (const annotation of await page.getAnnotations({ intent: 'display' }))
      if (annotation?.subtype === 'Link') addLink(reading, annotation.unsafeUrl ?? annotation.url);
    for (const url of textUrls(paragraphs.join('\n'))) addLink(reading, url);
    return whole;
  } finally {
    page.cleanup();
  }
}

/** Pages in order until the last one, the page cap, the text cap or the time budget. */
async function readPages(reading: Reading, doc: Doc): Promise<void> {
  const { read, limits } = reading;
  read.totalPages = doc.numPages;
  const last = Math.min(doc.numPages, limits.pages);
  if (doc.numPages > last) read.warnings.push(`pdf: ${doc.numPages} pages, first ${last} read`);
  for (let number = 1; number <= last; number++) {
    if (Date.now() - reading.started > limits.budgetMs) {
      read.warnings.push(`pdf: reading stopped after ${number - 1} pages (${limits.budgetMs} ms spent)`);
      return;
    }
    if (!(await readPage(reading, doc, number))) {
      read.warnings.push(`pdf: text cut at ${limits.textChars} characters (page ${number})`);
      return;
    }
  }
}

async function readDocument(reading: Reading, loading: Loading): Promise<void> {
  const doc = await loading.promise;
  const meta = await doc.getMetadata().catch(() => null);
  const info = meta?.info;
  reading.read.info = pdfInfo(info !== null && typeof info === 'object' ? { ...info } : {});
  await readPages(reading, doc);
}

/** Rejects after `ms`: a single pdf.js call that does not come back in time is given up on. */
function overrun(ms: number): { promise: Promise<never>; clear: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up after ${ms} ms`)), ms);
  });
  return { promise, clear: () => clearTimeout(timer) };
}

function failure(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'PasswordException') return 'pdf: encrypted (a password is needed), not read';
  return `pdf: could not be parsed: ${messageOf(error)}`;
}

/** Reads a PDF within `limits`; `url` resolves its relative links. */
export async function readPdf(bytes: Uint8Array, url: string, limits: PdfLimits = PDF_LIMITS): Promise<PdfRead> {
  const read: PdfRead = { pages: [], totalPages: 0, info: null, links: [], warnings: [] };
  if (bytes.byteLength > limits.bytes) {
    read.warnings.push(`pdf: ${bytes.byteLength} bytes, more than the ${limits.bytes} read: not read`);
    return read;
  }
  const reading: Reading = { read, limits, url, started: Date.now(), chars: 0, seen: new Set() };
  const timer = overrun(limits.budgetMs + 1000);
  let loading: Loading | undefined;
  try {
    const { getDocument } = await getResolvedPDFJS();
    // pdf.js takes the buffer it is given (it detaches it): it gets a copy, the body is stored as fetched.
    loading = getDocument({
      data: bytes.slice(),
      isEvalSupported: false,
      useSystemFonts: true,
      disableFontFace: true,
      verbosity: 0,
    });
    await Promise.race([readDocument(reading, loading), timer.promise]);
  } catch (error) {
    read.warnings.push(failure(error));
  } finally {
    timer.clear();
    await loading?.destroy().catch(() => undefined);
  }
  if (read.pages.length > 0 && read.pages.every((p) => p.length === 0))
    read.warnings.push('pdf: no text layer (scanned?)');
  return read;
}
