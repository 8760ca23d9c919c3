/**
 * Where features meet: each setting that changes what a crawl stores (the extract defaults, extract: null, every
 * format, duplicates, rendering, maxPages, previousCrawlId, maxAge, cancel, purge) against each read path (pages, one
 * page, record, links, content in each format and as fetched, JSONL and CSV, WARC, llms.txt and llms-full.txt,
 * changes and diff, stats and usage, MCP get_page). Every cell answers something true: never an empty 2xx, never a
 * 5xx, never an error that names the wrong cause, and what one path says agrees with what the others answer.
 *
 * One site: the watch site (an article, a product with a price, a page that goes, noise, a page that comes), two
 * byte-identical about pages (a content duplicate), a page only a script fills (rendered under render: auto) and a
 * PDF.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { allPages, api, type CrawlView, createCrawl, namespace, site, waitForCrawl } from '../support/api';
import { type Cell, errorCode, errorMessage, getPage, json, mcpClient, read, warcOf } from '../support/matrix';

type Page = Awaited<ReturnType<typeof allPages>>[number];
type Spec = Record<string, unknown>;

const FORMATS = ['markdown', 'text', 'html'] as const;

/** The seeds and patterns of the matrix site in namespace `ns` (on the shared test host unless `host` says). */
function siteOf(ns: string, host = site()): Spec {
  const base = `${host}/t/${ns}`;
  return {
    seeds: [
      `${base}/watch/`,
      `${base}/shop/about.html`,
      `${base}/shop/company/about.html`,
      `${base}/spa/app-1.html`,
      `${base}/pdf/report.pdf`,
    ],
    maxDepth: 1,
    include: ['**/watch/*'],
  };
}

interface Run {
  id: string;
  crawl: CrawlView;
  pages: Page[];
  /** The formats of the crawl's extraction (none: extract null). */
  formats: readonly string[];
  recrawl: boolean;
}

async function run(request: Spec, formats: readonly string[], recrawl = false): Promise<Run> {
  const id = await createCrawl(request);
  const crawl = await waitForCrawl(id, 120_000);
  return { id, crawl, pages: await allPages(id), formats, recrawl };
}

let mcp: Client;
beforeAll(async () => {
  mcp = await mcpClient();
});
afterAll(async () => {
  await mcp?.close();
});

/** What a crawl's counts promise: every URL it accepted ended one way, once. */
function checkCounts(r: Run): void {
  const c = r.crawl.counts;
  if (r.crawl.status === 'completed')
    expect(c.stored + c.duplicates + c.failed + c.skipped, JSON.stringify(c)).toBe(c.discovered);
  const listed = r.pages.filter((p) => p.status >= 200 && p.status < 300);
  expect(listed.filter((p) => p.duplicateOf === null)).toHaveLength(c.stored);
  expect(listed.filter((p) => p.duplicateOf !== null)).toHaveLength(c.duplicates);
}

/** One page's read paths: one page, record, links, content in each form, and MCP, against each other. */
async function checkPage(r: Run, page: Page): Promise<void> {
  const q = `url=${encodeURIComponent(page.url)}`;
  const base = `/v1/crawls/${r.id}`;
  const detail = json<{ stored: { record: boolean; links: boolean; fetchedHtml: boolean } }>(
    await read(`${base}/page?${q}`),
  );
  const [record, links, raw, fetched] = await Promise.all([
    read(`${base}/record?${q}`),
    read(`${base}/links?${q}`),
    read(`${base}/content?${q}`),
    read(`${base}/content?${q}&source=fetched`),
  ]);
  const what = `${page.url} (${r.formats.join(',') || 'extract: null'})`;
  expect(record.status === 200, `${what}: /page says record ${detail.stored.record}`).toBe(detail.stored.record);
  expect(links.status, `${what}: its links`).toBe(200);
  const listed = json<{ links: string[] }>(links).links;
  expect(listed.length > 0, `${what}: /page says links ${detail.stored.links}`).toBe(detail.stored.links);
  expect(fetched.status === 200, `${what}: /page says fetchedHtml`).toBe(detail.stored.fetchedHtml);
  expect(fetched.status === 200, `${what}: HTML as fetched is kept exactly for rendered pages`).toBe(
    page.rendered !== null,
  );
  expect(raw.status, `${what}: its body`).toBe(200);
  if (page.duplicateOf !== null) checkDuplicate(page, record, raw);
  if (extractable(page)) checkRecord(r, what, record);
  const markdown = await checkOutputs(r, page, what);
  await checkMcp(r, page, what, markdown);
}

const isHtmlPage = (page: Page) => /html/.test(page.contentType ?? '');
const extractable = (page: Page) => isHtmlPage(page) || /pdf/.test(page.contentType ?? '');

/** A duplicate answers its kept page's record and bytes, and names it. */
function checkDuplicate(page: Page, record: Cell, raw: Cell): void {
  expect(raw.headers.get('x-edgecrawl-duplicate-of'), page.url).toBe(page.duplicateOf);
  if (record.status === 200) expect(json<{ duplicateOf: string }>(record).duplicateOf).toBe(page.duplicateOf);
  else expect(errorMessage(record), page.url).toContain(page.duplicateOf ?? '');
}

/** A crawl that extracts has a record of each HTML page and PDF; one that does not says so, and only it. */
function checkRecord(r: Run, what: string, record: Cell): void {
  if (r.formats.length > 0) {
    expect(record.status, `${what}: ${record.text.slice(0, 200)}`).toBe(200);
    return;
  }
  expect(record.status, what).toBe(404);
  expect(errorMessage(record), what).toMatch(/the crawl ran with extract: null/);
}

/**
 * Each output the crawl keeps is there and not empty, or a 404 that says why: empty (a page never rendered whose
 * text a script makes), a PDF's html, a format the crawl does not keep, a crawl that does not extract. Whether the
 * page's markdown is there.
 */
async function checkOutputs(r: Run, page: Page, what: string): Promise<boolean> {
  let markdown = false;
  for (const format of FORMATS) {
    const cell = await read(`/v1/crawls/${r.id}/content?url=${encodeURIComponent(page.url)}&format=${format}`);
    const why = `${what} ${format}: ${cell.text.slice(0, 300)}`;
    const kept = r.formats.includes(format) && extractable(page) && (format !== 'html' || isHtmlPage(page));
    if (kept && cell.status === 404) {
      expect(errorCode(cell), why).toBe('empty_output');
      expect(page.rendered, `${why}: only a page never rendered is empty`).toBeNull();
      expect(errorMessage(cell), why).toMatch(/render: auto or always/);
    } else if (kept) expect(cell.status, why).toBe(200);
    else {
      expect(cell.status, why).toBe(404);
      expect(errorMessage(cell), why).toMatch(expectedWhy(r, page, format));
    }
    if (format === 'markdown') markdown = cell.status === 200;
  }
  return markdown;
}

function expectedWhy(r: Run, page: Page, format: string): RegExp {
  if (r.formats.length === 0) return /extract: null/;
  if (!extractable(page)) return /not extracted/;
  if (!r.formats.includes(format)) return /extract\.formats does not include it/;
  return /a PDF is extracted into text and markdown, not html/;
}

/** MCP get_page answers the page's markdown when GET /content does, else an error that says why (never empty). */
async function checkMcp(r: Run, page: Page, what: string, markdown: boolean): Promise<void> {
  const answer = await getPage(mcp, r.id, page.url);
  expect(answer.text.trim().length, `${what}: get_page`).toBeGreaterThan(0);
  expect(answer.error, `${what}: get_page ${answer.text.slice(0, 200)}`).toBe(!markdown);
  if (page.duplicateOf !== null && markdown) expect(answer.text).toContain(`is a duplicate of ${page.duplicateOf}`);
}

/** The crawl's whole-crawl read paths: exports, WARC, llms, changes, stats, usage. */
async function checkCrawl(r: Run): Promise<void> {
  const base = `/v1/crawls/${r.id}`;
  const stored = r.pages.filter((p) => p.status >= 200 && p.status < 300 && p.duplicateOf === null);
  const [jsonl, csv, llms, full, stats, usage] = await Promise.all([
    read(`${base}/export?format=jsonl`),
    read(`${base}/export?format=csv`),
    read(`${base}/llms.txt`),
    read(`${base}/llms-full.txt`),
    read(`${base}/stats`),
    read(`${base}/usage`),
  ]);
  expect(jsonl.status).toBe(200);
  expect(jsonl.text.trimEnd().split('\n').length).toBeGreaterThanOrEqual(stored.length);
  expect(csv.status).toBe(200);
  expect(csv.text.trimEnd().split('\n').length).toBeGreaterThan(stored.length);
  checkLlms(r, llms, full, stored);
  expect(json<{ counts: unknown }>(stats).counts).toEqual(r.crawl.counts);
  expect(usage.status).toBe(200);
  const warc = await warcOf(r.id);
  expect((warc.get('response') ?? []).sort()).toEqual(stored.map((p) => p.url).sort());
  expect((warc.get('conversion') ?? []).sort()).toEqual(stored.filter((p) => p.rendered !== null).map((p) => p.url));
  await checkChanges(r);
}

/** llms.txt lists the stored pages, each section once; llms-full.txt holds their markdown, or says how to have it. */
function checkLlms(r: Run, llms: Cell, full: Cell, stored: Page[]): void {
  expect(llms.status).toBe(200);
  for (const p of stored.filter(isHtmlPage)) expect(llms.text).toContain(p.url);
  const sections = [...llms.text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
  expect(new Set(sections).size, `llms.txt sections: ${sections.join(', ')}`).toBe(sections.length);
  if (r.formats.includes('markdown')) {
    expect(full.status, full.text.slice(0, 200)).toBe(200);
    for (const p of stored.filter(extractable)) expect(full.text, `llms-full.txt holds ${p.url}`).toContain(p.url);
  } else {
    expect(full.status, full.text.slice(0, 200)).toBe(409);
    expect(errorMessage(full)).toMatch(/markdown/);
  }
}

/** A recrawl answers its changes and diffs; any other crawl says it is not one, and how to make one. */
async function checkChanges(r: Run): Promise<void> {
  const base = `/v1/crawls/${r.id}`;
  const article = r.pages.find((p) => p.url.endsWith('/watch/article.html'));
  const [changes, diff] = await Promise.all([
    read(`${base}/changes`),
    read(`${base}/diff?url=${encodeURIComponent(article?.url ?? `${site()}/none`)}`),
  ]);
  if (r.recrawl) {
    expect(changes.status).toBe(200);
    expect(diff.status, diff.text.slice(0, 200)).toBe(200);
    return;
  }
  for (const cell of [changes, diff]) {
    expect(cell.status, cell.path).toBe(409);
    expect(errorMessage(cell), cell.path).toMatch(/previousCrawlId/);
  }
}

async function checkAll(r: Run): Promise<void> {
  checkCounts(r);
  for (const page of r.pages.filter((p) => p.status >= 200 && p.status < 300)) await checkPage(r, page);
  await checkCrawl(r);
}

const DEFAULT_FORMATS = ['markdown', 'metadata'];
const ALL = ['markdown', 'text', 'html', 'metadata', 'jsonLd', 'links', 'images'];

describe('every read path of every kind of crawl', () => {
  it('a crawl given only its seeds (markdown and metadata by default)', async () => {
    await checkAll(await run(siteOf(namespace()), DEFAULT_FORMATS));
  });

  it('extract: null (the plain crawl: raw bodies, titles and links)', async () => {
    await checkAll(await run({ ...siteOf(namespace()), extract: null }, []));
  });

  it('every format, with fields', async () => {
    const extract = { formats: ALL, fields: { price: { selector: '.price' } } };
    await checkAll(await run({ ...siteOf(namespace()), extract }, ALL));
  });

  it('duplicates kept, and a page never rendered', async () => {
    const r = await run({ ...siteOf(namespace()), duplicates: 'keep', render: 'never' }, DEFAULT_FORMATS);
    expect(r.crawl.counts.duplicates).toBe(0);
    expect(r.pages.every((p) => p.rendered === null)).toBe(true);
    await checkAll(r);
  });

  it('maxPages caps what is stored, and every read path agrees on what was', async () => {
    const r = await run({ ...siteOf(namespace()), maxPages: 3 }, DEFAULT_FORMATS);
    expect(r.crawl.counts.fetched).toBeLessThanOrEqual(3);
    await checkAll(r);
  });

  it('a recrawl (previousCrawlId) after the site changed, and a crawl served from the page cache (maxAge)', async () => {
    const ns = namespace();
    // No depth limit: a crawl that reached all it found can tell a page gone from one not reached.
    const whole = { ...siteOf(ns), maxDepth: null };
    const first = await run(whole, DEFAULT_FORMATS);
    const cached = await run({ ...whole, maxAge: 3600 }, DEFAULT_FORMATS);
    expect(cached.pages.some((p) => p.cachedFrom === first.id)).toBe(true);
    await checkAll(cached);
    expect((await fetch(`${site()}/t/${ns}/watch/__next`)).status).toBe(204);
    const second = await run({ ...whole, previousCrawlId: first.id }, DEFAULT_FORMATS, true);
    expect(second.crawl.changes, JSON.stringify(second.crawl.changes)).toMatchObject({ new: 1, gone: 1 });
    await checkAll(second);
  });

  it('a crawl that stored nothing says so on every path, never with an empty answer', async () => {
    // Its one seed is disallowed by robots.txt: no page at all, one URL skipped.
    const host = inject('hosts')[25];
    if (!host) throw new Error('no test host 25');
    const ns = namespace();
    const robots = `User-agent: *\nDisallow: /t/${ns}/\n`;
    expect((await fetch(`${host}/__robots`, { method: 'PUT', body: robots })).status).toBeLessThan(300);
    const r = await run({ seeds: [`${host}/t/${ns}/watch/`] }, DEFAULT_FORMATS);
    expect(r.crawl.counts).toMatchObject({ discovered: 1, stored: 0, skipped: 1 });
    expect(r.pages).toEqual([]);
    checkCounts(r);
    const base = `/v1/crawls/${r.id}`;
    for (const path of ['export?format=jsonl', 'export?format=csv', 'llms.txt', 'llms-full.txt']) {
      const cell = await read(`${base}/${path}`);
      expect(cell.status, `${path}: ${cell.text.slice(0, 200)}`).toBe(404);
      expect(errorMessage(cell), path).toMatch(/stored no page.*\/errors/);
    }
    const warc = await read(`${base}/exports`, { method: 'POST' });
    expect(warc.status, warc.text.slice(0, 200)).toBe(404);
    expect(errorMessage(warc)).toMatch(/stored no page.*\/errors/);
    // A scrape of the seed is refused for the same reason: by the outcome's code (robots_disallowed), not its words.
    const scrape = await read('/v1/scrape', {
      method: 'POST',
      body: JSON.stringify({ url: `${host}/t/${ns}/watch/`, maxAge: 0 }),
    });
    expect(scrape.status, scrape.text.slice(0, 200)).toBe(403);
    expect(errorCode(scrape)).toBe('blocked_by_robots');
  });

  it('a cancelled crawl answers what it stored, and a purged one is gone from every path', async () => {
    // Paced, on a loopback host of its own (a paced crawl would slow the shared one's other crawls).
    const host = inject('hosts')[25];
    if (!host) throw new Error('no test host 25');
    const id = await createCrawl({ ...siteOf(namespace(), host), hostIntervalMs: 1000 });
    for (let i = 0; i < 300 && (await allPages(id)).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await allPages(id)).length, 'a page stored before the cancel').toBeGreaterThan(0);
    expect((await api(`/v1/crawls/${id}`, { method: 'DELETE' })).status).toBe(200);
    const crawl = await waitForCrawl(id);
    expect(crawl.status).toBe('cancelled');
    await checkAll({ id, crawl, pages: await allPages(id), formats: DEFAULT_FORMATS, recrawl: false });
    expect((await api(`/v1/crawls/${id}?purge=true`, { method: 'DELETE' })).status).toBeLessThan(300);
    for (const path of ['', '/pages', '/stats', '/usage', '/llms.txt', '/export?format=jsonl', '/changes']) {
      const cell = await read(`/v1/crawls/${id}${path}`);
      expect(cell.status, path).toBe(404);
      expect(errorMessage(cell), path).toMatch(/no crawl/);
    }
  });
});
