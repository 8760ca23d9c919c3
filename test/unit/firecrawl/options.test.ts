import { describe, expect, it } from 'vitest';
import { crawlSettingsSchema } from '../../../src/domain/crawl/settings';
import { crawlRequestSchema, translateBatch, translateCrawl } from '../../../src/domain/firecrawl/crawl-options';
import { readFormats } from '../../../src/domain/firecrawl/formats';
import { scrapeOptionsSchema, translateScrape } from '../../../src/domain/firecrawl/scrape-options';
import { webhookOf } from '../../../src/domain/firecrawl/webhook-options';
import { compilePattern } from '../../../src/domain/url/patterns';

const scrapeOf = (options: Record<string, unknown>, version: 1 | 2 = 2) => {
  const t = translateScrape(scrapeOptionsSchema.parse(options), version);
  if (!t.ok) throw new Error(t.message);
  return t.value;
};

const crawlOf = (request: Record<string, unknown>, floor = 1000) => {
  const t = translateCrawl(crawlRequestSchema.parse(request), 2, floor);
  if (!t.ok) throw new Error(t.message);
  // What edgecrawl's own schema makes of it: the settings are valid edgecrawl settings.
  return { ...t.value, config: crawlSettingsSchema.parse(t.value.settings) };
};

describe('Firecrawl scrape options', () => {
  it('maps formats, main content, tags, waitFor, actions and maxAge to edgecrawl', () => {
    const t = scrapeOf({
      formats: ['markdown', 'html', 'links', 'images', { type: 'screenshot', fullPage: true }, 'summary'],
      onlyMainContent: false,
      includeTags: ['article'],
      excludeTags: ['.ad'],
      waitFor: 500,
      actions: [{ type: 'click', selector: '#more' }, { type: 'wait', milliseconds: 100 }, { type: 'scroll' }],
      maxAge: 60_000,
    });
    expect(t.scrape).toEqual({
      extract: {
        formats: ['metadata', 'markdown', 'html', 'links', 'images', 'screenshot@fullPage', 'summary'],
        mainContent: false,
        include: ['article'],
        exclude: ['.ad'],
      },
      render: 'always',
      waitFor: 500,
      actions: [{ type: 'click', selector: '#more' }, { type: 'wait', milliseconds: 100 }, { type: 'scroll' }],
      maxAge: 60,
    });
    expect(t.warnings).toEqual([]);
  });

  it("defaults as Firecrawl's versions do: markdown of the main content, maxAge two days in v2 and none in v1", () => {
    expect(scrapeOf({}).scrape).toMatchObject({
      extract: { formats: ['metadata', 'markdown'], mainContent: true },
      render: 'auto',
      maxAge: 172_800,
    });
    expect(scrapeOf({}, 1).scrape.maxAge).toBe(0);
  });

  it('reads json formats (v2 objects, v1 jsonOptions and extract) and refuses one without schema or prompt', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(scrapeOf({ formats: [{ type: 'json', schema, prompt: 'p' }] }).scrape.extract).toMatchObject({
      formats: ['metadata', 'json'],
      json: { schema, prompt: 'p' },
    });
    expect(readFormats(['json'], { jsonOptions: { schema } })).toMatchObject({
      ok: true,
      formats: { json: { key: 'json' } },
    });
    expect(readFormats(['extract'], { extract: { prompt: 'x' } })).toMatchObject({
      formats: { json: { key: 'extract' } },
    });
    expect(readFormats([{ type: 'json' }])).toEqual({ ok: false, message: 'format json needs a schema or a prompt' });
  });

  it('refuses formats and actions it cannot do, naming them, and warns of options it ignores', () => {
    expect(translateScrape(scrapeOptionsSchema.parse({ formats: ['branding'] }), 2)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/format "branding" is not supported/),
    });
    for (const action of [
      { type: 'executeJavascript', script: '1' },
      { type: 'click', selector: 'a', all: true },
    ])
      expect(translateScrape(scrapeOptionsSchema.parse({ actions: [action] }), 2).ok).toBe(false);
    const t = scrapeOf({
      mobile: true,
      location: { country: 'DE' },
      blockAds: true,
      origin: 'js-sdk',
    });
    expect(t.warnings).toEqual([
      'ignored options edgecrawl does not have: mobile, location (pages are fetched from where the Worker runs)',
    ]);
    expect(scrapeOf({ parsers: [] }).warnings).toEqual(['parsers: PDFs are always read as text by edgecrawl']);
    expect(scrapeOf({ timeout: 5000 }).timeoutMs).toBe(5000);
  });

  it('fetches a page whose changes are tracked (never a cached copy), and needs markdown for it', () => {
    expect(scrapeOf({ formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }] }).scrape.maxAge).toBe(0);
    expect(readFormats([{ type: 'changeTracking' }])).toMatchObject({ ok: false });
  });
});

describe('Firecrawl crawl options', () => {
  it('maps limit, depth, paths, scope, sitemap, pacing and duplicates to valid edgecrawl settings', () => {
    const { config, warnings } = crawlOf({
      url: 'https://example.com/docs/',
      limit: 50,
      maxDiscoveryDepth: 2,
      includePaths: ['^/docs/api/'],
      excludePaths: ['\\.pdf$'],
      allowSubdomains: true,
      sitemap: 'skip',
      delay: 2,
      maxConcurrency: 3,
      deduplicateSimilarURLs: false,
      ignoreQueryParameters: true,
    });
    expect(config).toMatchObject({
      seeds: ['https://example.com/docs/'],
      maxPages: 50,
      maxDepth: 2,
      scope: 'same-domain',
      sitemaps: false,
      hostIntervalMs: 2000,
      hostConcurrency: 3,
      duplicates: 'keep',
      links: true,
      ignoreQuery: true,
    });
    expect(warnings).toEqual([]);
    const included = config.include.map(compilePattern);
    const excluded = config.exclude.map(compilePattern);
    const crawled = (url: string) => included.some((m) => m(url)) && !excluded.some((m) => m(url));
    expect(crawled('https://example.com/docs/api/a.html')).toBe(true);
    expect(crawled('https://example.com/docs/api/a.pdf')).toBe(false);
    // ignoreQueryParameters folds a URL with a query into its query-less form (ignoreQuery), rather than excluding it.
    expect(crawled('https://example.com/docs/api/a.html?page=2')).toBe(true);
    expect(crawled('https://example.com/blog/docs/api/a.html')).toBe(false);
    // deduplicateSimilarURLs (Firecrawl's default, true) is near-duplicates by content: duplicates "similar".
    expect(crawlOf({ url: 'https://example.com/' }).config.duplicates).toBe('similar');
    expect(crawlOf({ url: 'https://example.com/', deduplicateSimilarURLs: true }).config.duplicates).toBe('similar');
  });

  it('keeps a crawl under its start folder unless crawlEntireDomain, and follows external links when allowed', () => {
    const under = crawlOf({ url: 'https://example.com/docs/intro.html' }).config.exclude.map(compilePattern);
    expect(under.some((m) => m('https://example.com/blog/'))).toBe(true);
    expect(under.some((m) => m('https://example.com/docs/setup.html'))).toBe(false);
    expect(crawlOf({ url: 'https://example.com/docs/', crawlEntireDomain: true }).config.exclude).toEqual([]);
    expect(crawlOf({ url: 'https://example.com/', allowExternalLinks: true }).config.scope).toBe('any');
    expect(crawlOf({ url: 'https://example.com/' }).config).toMatchObject({
      maxPages: 10_000,
      sitemaps: true,
      scope: 'same-host',
    });
  });

  it("raises a delay under the deployment's floor, saying so, and reads sitemap only as sitemaps without links", () => {
    const { config, warnings } = crawlOf({ url: 'https://example.com/', delay: 0.2, sitemap: 'only' }, 1000);
    expect(config.hostIntervalMs).toBe(1000);
    expect(config).toMatchObject({ sitemaps: true, links: false });
    expect(warnings).toEqual(["delay raised to 1 s, this deployment's least gap between requests to a host"]);
  });

  it('refuses actions in a crawl, and reads a batch as a crawl of its URLs that follows no link', () => {
    const request = crawlRequestSchema.parse({
      url: 'https://example.com/',
      scrapeOptions: { actions: [{ type: 'scroll' }] },
    });
    expect(translateCrawl(request, 2, 0).ok).toBe(false);
    const batch = translateBatch({ urls: ['https://a.example/', 'https://b.example/x'], formats: ['links'] }, 2);
    if (!batch.ok) throw new Error(batch.message);
    expect(crawlSettingsSchema.parse(batch.value.settings)).toMatchObject({
      seeds: ['https://a.example/', 'https://b.example/x'],
      maxDepth: 0,
      maxPages: 2,
      scope: 'any',
      extract: { formats: ['metadata', 'links'] },
    });
  });
});

describe('Firecrawl webhooks', () => {
  it('maps a URL or an object with its events to a Firecrawl-format edgecrawl webhook', () => {
    expect(webhookOf('https://hook.example/')).toEqual({
      url: 'https://hook.example/',
      format: 'firecrawl',
      events: ['crawl.started', 'page.stored', 'page.failed', 'crawl.completed', 'crawl.cancelled'],
    });
    expect(
      webhookOf({
        url: 'https://hook.example/',
        events: ['crawl.page', 'completed'],
        headers: { A: 'b' },
        metadata: { k: 'v' },
      }),
    ).toEqual({
      url: 'https://hook.example/',
      format: 'firecrawl',
      events: ['page.stored', 'page.failed', 'crawl.completed', 'crawl.cancelled'],
      headers: { A: 'b' },
      metadata: { k: 'v' },
    });
  });
});
