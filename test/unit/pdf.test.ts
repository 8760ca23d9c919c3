import { describe, expect, it } from 'vitest';
import {
  isPdf,
  pageParagraphs,
  pdfDate,
  pdfInfo,
  pdfMarkdown,
  pdfText,
  pdfTitle,
  textUrls,
} from '../../src/domain/pdf/document';
import { readPdf } from '../../src/domain/pdf/read';
import { pdfExtract } from '../../src/domain/pdf/record';
import { encryptedPdf, garbagePdf, imageOnlyPdf, prose, textPdf } from '../support/pdfs';

const item = (str: string, y: number, hasEOL = true, height = 11) => ({ str, y, height, hasEOL });
const PDF_HEAD = new TextEncoder().encode('%PDF-1.4\n');

describe('isPdf', () => {
  it('takes the declared types, and a generic type whose body starts as a PDF', () => {
    expect(isPdf('application/pdf')).toBe(true);
    expect(isPdf('Application/X-PDF; name=a.pdf')).toBe(true);
    expect(isPdf('application/octet-stream', PDF_HEAD)).toBe(true);
    expect(isPdf(null, PDF_HEAD)).toBe(true);
    expect(isPdf('application/octet-stream', new TextEncoder().encode('PK\u0003\u0004'))).toBe(false);
    expect(isPdf('text/html', PDF_HEAD)).toBe(false);
    expect(isPdf('application/octet-stream')).toBe(false);
  });
});

describe('pageParagraphs', () => {
  it('joins lines into paragraphs, breaking at a blank line or a jump up the page', () => {
    const items = [
      item('Title', 740),
      item('First line of a', 712, false),
      item(' paragraph', 712),
      item('goes on here.', 698),
      item('', 698),
      item('Second paragraph.', 670),
      item('Next column.', 740),
    ];
    expect(pageParagraphs(items)).toEqual([
      'Title',
      'First line of a paragraph goes on here.',
      'Second paragraph.',
      'Next column.',
    ]);
  });

  it('ends a line where the baseline changes even without an end-of-line mark, and drops blank lines', () => {
    expect(pageParagraphs([item('a', 700, false), item('b', 686, false), item('   ', 672)])).toEqual(['a b']);
    expect(pageParagraphs([])).toEqual([]);
  });
});

describe('PDF metadata', () => {
  it('reads dates in ISO 8601, with or without a zone', () => {
    expect(pdfDate("D:20240301120000+02'00'")).toBe('2024-03-01T10:00:00.000Z');
    expect(pdfDate('D:20240301120000Z')).toBe('2024-03-01T12:00:00.000Z');
    expect(pdfDate('D:2024')).toBe('2024-01-01T00:00:00.000Z');
    expect(pdfDate('yesterday')).toBeNull();
    expect(pdfDate(null)).toBeNull();
  });

  it('keeps strings only, collapsed and cut', () => {
    const info = pdfInfo({ Title: '  A\n title ', Author: 42, Subject: '', ModDate: 'D:20200101000000Z', Custom: 'x' });
    expect(info).toMatchObject({ title: 'A title', author: null, subject: null, modified: '2020-01-01T00:00:00.000Z' });
    expect(pdfInfo({ Title: 'x'.repeat(5000) }).title).toHaveLength(1000);
  });

  it('titles a document by its Info title, else its first line, else its file name', () => {
    const info = pdfInfo({ Title: 'Annual' });
    expect(pdfTitle(info, [['First']], 'https://a.example/r.pdf')).toBe('Annual');
    expect(pdfTitle(pdfInfo({}), [[], ['First', 'Second']], 'https://a.example/r.pdf')).toBe('First');
    expect(pdfTitle(null, [[]], 'https://a.example/docs/annual%20report.pdf')).toBe('annual report.pdf');
    expect(pdfTitle(null, [], 'https://a.example/')).toBeNull();
  });
});

describe('markdown and text of pages', () => {
  it('puts a heading on each page and escapes what Markdown would read as markup', () => {
    const pages = [['# not a heading', 'a *b* [c]'], [], ['1. not a list']];
    expect(pdfMarkdown(pages)).toBe(
      '## Page 1\n\n\\# not a heading\n\na \\*b\\* \\[c\\]\n\n## Page 2\n\n## Page 3\n\n1\\. not a list',
    );
    expect(pdfText(pages)).toBe('# not a heading\n\na *b* [c]\n\n1. not a list');
    expect(pdfMarkdown([[], []])).toBe('');
  });

  it('finds URLs written in the text, without trailing punctuation', () => {
    expect(textUrls('See https://a.example/x?y=1. And (http://b.example/z), ftp://c.example/')).toEqual([
      'https://a.example/x?y=1',
      'http://b.example/z',
    ]);
  });
});

const LIMITS = { bytes: 1024 * 1024, pages: 500, budgetMs: 10_000, textChars: 1_000_000, links: 100, metaChars: 1000 };

describe('readPdf', () => {
  it('reads pages, metadata and links (relative ones resolved, others than http(s) left out)', async () => {
    const bytes = await textPdf({
      title: 'T',
      author: 'A',
      pages: [['One', 'Go to https://x.example/in-text.'], ['Two']],
      links: { 1: ['../b.html', 'mailto:a@b.example', 'https://x.example/in-text'] },
    });
    const read = await readPdf(bytes, 'https://x.example/docs/a.pdf', LIMITS);
    expect(read.pages).toEqual([['One', 'Go to https://x.example/in-text.'], ['Two']]);
    expect(read.totalPages).toBe(2);
    expect(read.info).toMatchObject({ title: 'T', author: 'A', created: '2024-03-01T12:00:00.000Z' });
    expect(read.links).toEqual(['https://x.example/in-text', 'https://x.example/b.html']);
    expect(read.warnings).toEqual([]);
  });

  it('stops at the page, text and byte caps with a warning', async () => {
    const bytes = await textPdf({ pages: Array.from({ length: 5 }, (_, i) => prose(i, 3)) });
    const paged = await readPdf(bytes, 'https://x.example/a.pdf', { ...LIMITS, pages: 2 });
    expect(paged.pages).toHaveLength(2);
    expect(paged.warnings).toEqual(['pdf: 5 pages, first 2 read']);
    const cut = await readPdf(bytes, 'https://x.example/a.pdf', { ...LIMITS, textChars: 1000 });
    expect(pdfText(cut.pages).length).toBeLessThanOrEqual(1000);
    expect(cut.warnings).toEqual(['pdf: text cut at 1000 characters (page 1)']);
    const big = await readPdf(bytes, 'https://x.example/a.pdf', { ...LIMITS, bytes: 100 });
    expect(big.pages).toEqual([]);
    expect(big.warnings).toEqual([`pdf: ${bytes.byteLength} bytes, more than the 100 read: not read`]);
  });

  it('says what it could not read: no text layer, encrypted, garbage, a truncated file; never throws', async () => {
    const scanned = await readPdf(await imageOnlyPdf(2), 'https://x.example/s.pdf', LIMITS);
    expect(scanned.pages).toEqual([[], []]);
    expect(scanned.warnings).toEqual(['pdf: no text layer (scanned?)']);
    const encrypted = await readPdf(await encryptedPdf(), 'https://x.example/e.pdf', LIMITS);
    expect(encrypted.warnings).toEqual(['pdf: encrypted (a password is needed), not read']);
    const garbage = await readPdf(garbagePdf(), 'https://x.example/g.pdf', LIMITS);
    expect(garbage.warnings).toEqual([expect.stringMatching(/^pdf: could not be parsed: /)]);
    const whole = await textPdf({ pages: [prose(1, 3)] });
    const truncated = await readPdf(whole.subarray(0, 200), 'https://x.example/t.pdf', LIMITS);
    expect(truncated.warnings).toEqual([expect.stringMatching(/^pdf: could not be parsed: /)]);
  });

  it('leaves the bytes it is given as they were', async () => {
    const bytes = await textPdf({ pages: [['One']] });
    const copy = bytes.slice();
    await readPdf(bytes, 'https://x.example/a.pdf', LIMITS);
    expect(bytes).toEqual(copy);
  });
});

describe('pdfExtract', () => {
  it('keeps only the outputs the spec asks for, and the facts of the row in any case', async () => {
    const bytes = await textPdf({ title: 'T', pages: [['Hello world']], links: { 0: ['https://x.example/'] } });
    const read = await readPdf(bytes, 'https://x.example/a.pdf', LIMITS);
    const plain = await pdfExtract(read, bytes, 'https://x.example/a.pdf', null);
    expect(plain).toMatchObject({ title: 'T', wordCount: 2, record: null, outputs: {} });
    const spec = {
      formats: ['text' as const, 'links' as const],
      mainContent: true,
      include: [],
      exclude: [],
      fields: {},
    };
    const full = await pdfExtract(read, bytes, 'https://x.example/a.pdf', spec);
    expect(full.outputs).toEqual({ text: 'Hello world' });
    expect(full.record).toEqual({
      links: ['https://x.example/'],
      wordCount: 2,
      contentHash: plain.contentHash,
      warnings: [],
    });
  });
});
