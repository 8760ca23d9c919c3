/**
 * PDFs made for tests and measurements (pdf-lib): text over pages with Info metadata, URI link annotations, pages with
 * no text layer, and broken files. Deterministic: the same arguments give the same bytes.
 */
import { PDFDocument, PDFHexString, PDFName, PDFString, StandardFonts } from 'pdf-lib';

export interface TextPdf {
  title?: string;
  author?: string;
  subject?: string;
  language?: string;
  /** Each page's paragraphs; each paragraph is drawn as lines of at most 80 characters, a blank line between. */
  pages: string[][];
  /** URI link annotations per page index. */
  links?: Record<number, string[]>;
}

const FIXED_DATE = new Date('2024-03-01T12:00:00Z');

/** Lines of at most `width` characters, broken at spaces. */
function wrap(paragraph: string, width = 80): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

function linkAnnotation(doc: PDFDocument, url: string, y: number) {
  return doc.context.register(
    doc.context.obj({
      Type: 'Annot',
      Subtype: 'Link',
      Rect: [50, y, 300, y + 14],
      Border: [0, 0, 0],
      A: { Type: 'Action', S: 'URI', URI: PDFString.of(url) },
    }),
  );
}

/** A PDF with a text layer: every page's paragraphs drawn in Helvetica, with its metadata and link annotations. */
export async function textPdf(spec: TextPdf): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  if (spec.title) doc.setTitle(spec.title);
  if (spec.author) doc.setAuthor(spec.author);
  if (spec.subject) doc.setSubject(spec.subject);
  if (spec.language) doc.setLanguage(spec.language);
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);
  spec.pages.forEach((paragraphs, index) => {
    const page = doc.addPage([612, 792]);
    let y = 740;
    for (const paragraph of paragraphs) {
      for (const line of wrap(paragraph)) {
        if (y < 60) break;
        page.drawText(line, { x: 50, y, size: 11, font });
        y -= 14;
      }
      y -= 14;
    }
    const links = spec.links?.[index] ?? [];
    if (links.length > 0)
      page.node.set(
        PDFName.of('Annots'),
        doc.context.obj(links.map((url, i) => linkAnnotation(doc, url, 40 + i * 16))),
      );
  });
  return doc.save({ useObjectStreams: false });
}

/** A PDF whose pages hold only drawn shapes, as a scan holds only images: no text layer. */
export async function imageOnlyPdf(pages = 2): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([612, 792]);
    for (let r = 0; r < 20; r++) page.drawRectangle({ x: 40 + r * 5, y: 100 + r * 30, width: 400, height: 12 });
  }
  return doc.save({ useObjectStreams: false });
}

/** Hex of `n` deterministic bytes. */
const hexBytes = (n: number, seed: number) =>
  Array.from({ length: n }, (_, i) => ((i * 37 + seed) % 256).toString(16).padStart(2, '0')).join('');

/**
 * A PDF encrypted with the standard handler and a user password (its O and U entries are arbitrary bytes, so no
 * password opens it): a reader asks for a password.
 */
export async function encryptedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);
  doc.addPage([612, 792]).drawText('secret');
  const { context } = doc;
  context.trailerInfo.Encrypt = context.register(
    context.obj({
      Filter: 'Standard',
      V: 1,
      R: 2,
      Length: 40,
      P: -4,
      O: PDFHexString.of(hexBytes(32, 1)),
      U: PDFHexString.of(hexBytes(32, 2)),
    }),
  );
  context.trailerInfo.ID = context.obj([PDFHexString.of(hexBytes(16, 3)), PDFHexString.of(hexBytes(16, 3))]);
  return doc.save({ useObjectStreams: false });
}

/** Paragraphs of plain words, deterministic from `seed`. */
export function prose(seed: number, paragraphs: number, words = 60): string[] {
  const vocabulary = ['crawl', 'edge', 'queue', 'durable', 'object', 'polite', 'fetch', 'parse', 'store', 'worker'];
  return Array.from({ length: paragraphs }, (_, p) =>
    Array.from({ length: words }, (_, w) => vocabulary[(seed * 7 + p * 13 + w * 31) % vocabulary.length]).join(' '),
  );
}

/** A header and then bytes that are no PDF at all. */
export function garbagePdf(): Uint8Array {
  const junk = new Uint8Array(4096);
  for (let i = 0; i < junk.length; i++) junk[i] = (i * 131 + 7) % 251;
  const head = new TextEncoder().encode('%PDF-1.7\n');
  const out = new Uint8Array(head.length + junk.length);
  out.set(head);
  out.set(junk, head.length);
  return out;
}
