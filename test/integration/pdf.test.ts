import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { allPages, api, countBy, createCrawl, namespace, site, siteLog, waitForCrawl } from '../support/api';

interface RecordView {
  url: string;
  contentType: string | null;
  metadata?: Record<string, unknown>;
  links?: string[];
  wordCount: number;
  contentHash: string;
  warnings: string[];
}

interface ExportRow {
  url: string;
  title: string | null;
  contentHash: string | null;
  warnings?: string[];
  stored: boolean;
}

const record = async (id: string, url: string) => {
  const res = await api(`/v1/crawls/${id}/record?url=${encodeURIComponent(url)}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as RecordView;
};
const content = async (id: string, url: string, format: string) => {
  const res = await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(url)}&format=${format}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.text();
};
const exported = async (id: string): Promise<Map<string, ExportRow>> => {
  const res = await api(`/v1/crawls/${id}/export?format=jsonl`);
  expect(res.status).toBe(200);
  const rows = (await res.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ExportRow);
  return new Map(rows.map((row) => [row.url, row]));
};

const PDFS = [
  'report.pdf',
  'links.pdf',
  'scanned.pdf',
  'broken.pdf',
  'encrypted.pdf',
  'truncated.pdf',
  'download',
  'huge.pdf',
];

describe('PDFs in a crawl', () => {
  it('reads text, markdown, metadata and links; follows the links; stores every PDF, unreadable ones with a warning', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/pdf/`;
    const id = await createCrawl({
      seeds: [root],
      maxDepth: 2,
      extract: { formats: ['markdown', 'text', 'metadata', 'links'] },
      // `download` serves report.pdf's bytes as application/octet-stream: read here as a PDF of its own (by default
      // one of the two is recorded a duplicate of the other, as a test below checks).
      duplicates: 'keep',
    });
    const crawl = await waitForCrawl(id);
    // index, 8 documents, and a.html, b.html, c.html reached only through links.pdf.
    expect(crawl.counts).toMatchObject({ stored: 12, failed: 0 });

    const report = await record(id, `${root}report.pdf`);
    expect(report.metadata).toMatchObject({
      title: 'Quarterly Crawl Report',
      author: 'Ada Lovelace',
      subject: 'How the crawl went',
      language: 'en-GB',
      created: '2024-03-01T12:00:00.000Z',
      pages: 3,
      pagesRead: 3,
    });
    expect(report.warnings).toEqual([]);
    expect(report.wordCount).toBeGreaterThan(100);
    const markdown = await content(id, `${root}report.pdf`, 'markdown');
    expect(markdown.startsWith('## Page 1\n\nIntroduction\n\nThe pdfreport token opens the report.\n\n')).toBe(true);
    expect(markdown).toContain('## Page 2\n\nFindings\n\nThe second page says pdfsecond plainly.');
    expect(markdown).toContain('## Page 3\n\nConclusion\n\nThe third page ends with pdfthird.');
    const text = await content(id, `${root}report.pdf`, 'text');
    expect(text).toContain('The second page says pdfsecond plainly.\n\n');
    expect(text).not.toContain('## Page');

    const links = await record(id, `${root}links.pdf`);
    expect(links.links).toEqual([`${root}a.html`, `${root}b.html`, `${root}c.html`]);
    const log = (await siteLog(ns)).map((entry) => entry.split(' ')[1]);
    for (const page of ['a.html', 'b.html', 'c.html']) expect(log).toContain(`/t/${ns}/pdf/${page}`);
    // Each document was fetched once: none was retried.
    const fetched = countBy(log);
    for (const pdf of PDFS) expect(fetched.get(`/t/${ns}/pdf/${pdf}`), pdf).toBe(1);
    const errors = await env.DB.prepare('SELECT COUNT(*) AS n FROM errors WHERE crawl_id = ?').bind(id).first('n');
    expect(errors).toBe(0);

    const rows = await exported(id);
    expect(rows.get(`${root}report.pdf`)?.title).toBe('Quarterly Crawl Report');
    expect(rows.get(`${root}links.pdf`)?.title).toBe('Links Handout');
    // Sent as application/octet-stream, read as the PDF it is.
    expect(rows.get(`${root}download`)?.title).toBe('Quarterly Crawl Report');
    expect(rows.get(`${root}download`)?.contentHash).toBe(report.contentHash);
    expect(rows.get(`${root}scanned.pdf`)).toMatchObject({
      title: 'scanned.pdf',
      warnings: ['pdf: no text layer (scanned?)'],
    });
    expect((await record(id, `${root}scanned.pdf`)).metadata).toMatchObject({ pages: 2, pagesRead: 2, title: null });
    expect(rows.get(`${root}encrypted.pdf`)?.warnings).toEqual(['pdf: encrypted (a password is needed), not read']);
    for (const broken of ['broken.pdf', 'truncated.pdf'])
      expect(rows.get(`${root}${broken}`)?.warnings, broken).toEqual([
        expect.stringMatching(/^pdf: could not be parsed: /),
      ]);

    // llms.txt lists the PDFs stored with their titles; llms-full.txt holds their markdown.
    const llms = await (await api(`/v1/crawls/${id}/llms.txt`)).text();
    expect(llms).toContain(`- [Quarterly Crawl Report](${root}report.pdf)`);
    expect(llms).not.toContain(`${root}huge.pdf`);
    const full = await (await api(`/v1/crawls/${id}/llms-full.txt`)).text();
    expect(full).toContain(`# Quarterly Crawl Report\n\nSource: ${root}report.pdf\n\n## Page 1\n\nIntroduction`);
  });

  it('stores a PDF larger than the body cap unread, with a warning, having read no more than the cap', async () => {
    const ns = namespace();
    const url = `${site()}/t/${ns}/pdf/huge.pdf`;
    const id = await createCrawl({ seeds: [url], maxDepth: 0 });
    const crawl = await waitForCrawl(id);
    expect(crawl.counts).toMatchObject({ stored: 1, failed: 0 });
    const row = (await exported(id)).get(url);
    expect(row).toMatchObject({
      title: 'huge.pdf',
      warnings: [
        `pdf: larger than the ${env.MAX_BODY_BYTES}-byte body cap (209715200 bytes): not read, body not stored`,
      ],
    });
    expect(countBy(await siteLog(ns)).get(`127.0.0.1:${new URL(url).port} /t/${ns}/pdf/huge.pdf`)).toBe(1);
    const sent = (await (await fetch(`${site()}/t/${ns}/pdf/huge-sent`)).json()) as { bytes: number };
    expect(sent.bytes).toBeLessThan(4 * Number(env.MAX_BODY_BYTES));
  });

  it('keeps links and title without an extract spec, and hashes the text', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/pdf/`;
    const id = await createCrawl({ seeds: [`${root}links.pdf`], maxDepth: 1, extract: null });
    const crawl = await waitForCrawl(id);
    expect(crawl.counts).toMatchObject({ stored: 4, failed: 0 });
    expect((await api(`/v1/crawls/${id}/record?url=${encodeURIComponent(`${root}links.pdf`)}`)).status).toBe(404);
    const res = await api(`/v1/crawls/${id}/links?url=${encodeURIComponent(`${root}links.pdf`)}`);
    expect(((await res.json()) as { links: string[] }).links).toEqual([
      `${root}a.html`,
      `${root}b.html`,
      `${root}c.html`,
    ]);
    expect((await exported(id)).get(`${root}links.pdf`)?.title).toBe('Links Handout');
  });

  it('records the same document under a second URL as a duplicate (its text hashed, not its type)', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/pdf/`;
    const id = await createCrawl({ seeds: [`${root}report.pdf`, `${root}download`], maxDepth: 0 });
    const crawl = await waitForCrawl(id);
    expect(crawl.counts).toMatchObject({ stored: 1, duplicates: 1, failed: 0 });
    const pages = await allPages(id);
    const duplicate = pages.find((p) => p.duplicateOf !== null);
    expect(duplicate?.duplicateReason).toBe('content');
    expect([duplicate?.url, duplicate?.duplicateOf].sort()).toEqual([`${root}download`, `${root}report.pdf`]);
  });
});

describe('POST /v1/scrape of a PDF', () => {
  it('answers its record with markdown and text inline', async () => {
    const url = `${site()}/t/${namespace()}/pdf/report.pdf`;
    const res = await api('/v1/scrape', {
      method: 'POST',
      body: JSON.stringify({ url, extract: { formats: ['markdown', 'text', 'metadata'] } }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const scraped = (await res.json()) as {
      contentType: string;
      markdown: string;
      text: string;
      metadata: Record<string, unknown>;
      warnings: string[];
    };
    expect(scraped.contentType).toBe('application/pdf');
    expect(scraped.metadata).toMatchObject({ title: 'Quarterly Crawl Report', author: 'Ada Lovelace', pages: 3 });
    expect(scraped.markdown).toContain('## Page 3\n\nConclusion');
    expect(scraped.text).toContain('pdfthird');
    expect(scraped.warnings).toEqual([]);
  });

  it('answers a broken or oversized PDF with its warning, not an error', async () => {
    const root = `${site()}/t/${namespace()}/pdf/`;
    const scrape = async (name: string) => {
      const res = await api('/v1/scrape', { method: 'POST', body: JSON.stringify({ url: `${root}${name}` }) });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as { warnings: string[]; wordCount: number; markdown?: string };
    };
    expect((await scrape('broken.pdf')).warnings).toEqual([expect.stringMatching(/^pdf: could not be parsed: /)]);
    expect(await scrape('huge.pdf')).toMatchObject({
      wordCount: 0,
      warnings: [
        `pdf: larger than the ${env.MAX_BODY_BYTES}-byte body cap (209715200 bytes): not read, body not stored`,
      ],
    });
  });
});
