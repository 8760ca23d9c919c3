import { describe, expect, it } from 'vitest';
import { changeTrackingOf } from '../../../src/domain/firecrawl/change-tracking';
import { firecrawlDocument, type PageFacts } from '../../../src/domain/firecrawl/document';
import { readFormats } from '../../../src/domain/firecrawl/formats';

const page: PageFacts = {
  url: 'https://example.com/a',
  finalUrl: 'https://example.com/a/',
  status: 200,
  contentType: 'text/html; charset=utf-8',
  fetchedAt: '2026-12-01T10:00:00.000Z',
  cached: true,
  record: {
    metadata: {
      title: 'A page',
      description: 'About A',
      language: 'en',
      keywords: ['x', 'y'],
      og: { title: 'OG A', site_name: 'Example' },
      twitter: { card: 'summary' },
    },
    links: ['https://example.com/b'],
    images: [
      { src: 'https://example.com/i.png', alt: '' },
      { src: 'https://example.com/i.png', alt: 'again' },
    ],
    summary: 'A summary.',
    json: { price: 1 },
    warnings: ['cut'],
  },
  outputs: { markdown: '# A', html: '<h1>A</h1>' },
  rawHtml: '<html><h1>A</h1></html>',
};

const formatsOf = (input: Parameters<typeof readFormats>[0]) => {
  const read = readFormats(input);
  if (!read.ok) throw new Error(read.message);
  return read.formats;
};

describe('firecrawlDocument', () => {
  it('carries the formats asked for and metadata by their Firecrawl names', () => {
    const doc = firecrawlDocument(page, formatsOf(['markdown', 'html', 'rawHtml', 'links', 'images', 'summary']));
    expect(doc).toEqual({
      markdown: '# A',
      html: '<h1>A</h1>',
      rawHtml: '<html><h1>A</h1></html>',
      links: ['https://example.com/b'],
      images: ['https://example.com/i.png'],
      summary: 'A summary.',
      warning: 'cut',
      metadata: {
        title: 'A page',
        description: 'About A',
        language: 'en',
        keywords: 'x, y',
        ogTitle: 'OG A',
        'og:title': 'OG A',
        ogSiteName: 'Example',
        'og:site_name': 'Example',
        'twitter:card': 'summary',
        sourceURL: 'https://example.com/a',
        url: 'https://example.com/a/',
        statusCode: 200,
        contentType: 'text/html; charset=utf-8',
        proxyUsed: 'basic',
        cacheState: 'hit',
        cachedAt: '2026-12-01T10:00:00.000Z',
      },
    });
  });

  it('leaves out what was not asked for, and puts v1 extract answers under extract', () => {
    const doc = firecrawlDocument(page, formatsOf([{ type: 'json', prompt: 'p' }]));
    expect(Object.keys(doc).sort()).toEqual(['json', 'metadata', 'warning']);
    const v1 = readFormats(['extract'], { extract: { prompt: 'p' } });
    if (!v1.ok) throw new Error(v1.message);
    expect(firecrawlDocument(page, v1.formats).extract).toEqual({ price: 1 });
  });
});

describe('changeTrackingOf', () => {
  const before = { fetchedAt: '2026-12-01T10:00:00.000Z', contentHash: 'h1', markdown: 'a\nb\n' };
  it('is new without a previous version, same or changed by the content hash, with a git diff when asked', () => {
    expect(changeTrackingOf(null, { contentHash: 'h', markdown: 'a' }, [])).toEqual({
      previousScrapeAt: null,
      changeStatus: 'new',
      visibility: 'visible',
    });
    expect(changeTrackingOf(before, { contentHash: 'h1', markdown: 'a\nb\n' }, []).changeStatus).toBe('same');
    const changed = changeTrackingOf(before, { contentHash: 'h2', markdown: 'a\nc\n' }, ['git-diff']);
    expect(changed).toMatchObject({ changeStatus: 'changed', previousScrapeAt: before.fetchedAt });
    expect(changed.diff?.text).toMatch(/^-b$/m);
    expect(changed.diff?.text).toMatch(/^\+c$/m);
  });
});
