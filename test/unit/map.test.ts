import { describe, expect, it } from 'vitest';
import { MapEntries, type MapEntry, rankEntries, searchScore, searchWords } from '../../src/domain/output/site-map';
import { parseSitemapEntries } from '../../src/domain/robots/sitemap';

const entry = (url: string, extra: Partial<MapEntry> = {}): MapEntry => ({
  url,
  source: 'sitemap',
  lastmod: null,
  ...extra,
});

describe('MapEntries', () => {
  it('keeps each URL once, with its first source, filling in a lastmod or title found later', () => {
    const found = new MapEntries(10);
    found.add({ url: 'https://a.test/', source: 'start', lastmod: null, title: 'Home' });
    found.add(entry('https://a.test/x', { lastmod: null }));
    found.add(entry('https://a.test/', { lastmod: '2026-01-01' }));
    found.add(entry('https://a.test/x', { source: 'links', lastmod: '2026-02-02', title: 'X' }));
    found.add(entry('https://a.test/x', { lastmod: '2026-03-03' }));
    expect(found.list()).toEqual([
      { url: 'https://a.test/', source: 'start', lastmod: '2026-01-01', title: 'Home' },
      { url: 'https://a.test/x', source: 'sitemap', lastmod: '2026-02-02', title: 'X' },
    ]);
    expect(found.full).toBe(false);
  });

  it('stops taking new URLs at its cap, and says so; known URLs are still merged', () => {
    const found = new MapEntries(2);
    for (const u of ['a', 'b', 'c', 'd']) found.add(entry(`https://a.test/${u}`));
    found.add(entry('https://a.test/a', { lastmod: '2026-01-01' }));
    expect(found.list().map((e) => [e.url, e.lastmod])).toEqual([
      ['https://a.test/a', '2026-01-01'],
      ['https://a.test/b', null],
    ]);
    expect(found).toMatchObject({ full: true, size: 2 });
  });
});

describe('search ranking', () => {
  it('splits a search into distinct lowercase words', () => {
    expect(searchWords('  Pricing, pricing & PLANS 2026! ')).toEqual(['pricing', 'plans', '2026']);
    expect(searchWords(' -- ')).toEqual([]);
  });

  it('counts the words found in the path, query (decoded) or title, not the host', () => {
    const words = ['pricing', 'plans', 'caf\u00e9', 'shop'];
    expect(searchScore(entry('https://shop.test/docs/pricing-plans'), words)).toBe(2);
    expect(searchScore(entry('https://a.test/caf%C3%A9?q=x'), words)).toBe(1);
    expect(searchScore(entry('https://a.test/', { title: 'Our Plans' }), words)).toBe(1);
    expect(searchScore(entry('https://a.test/%E0%A4%A'), ['a4'])).toBe(1);
  });

  it('ranks by words matched, ties and non-matches in their found order; no words: order unchanged', () => {
    const entries = [
      entry('https://a.test/blog'),
      entry('https://a.test/plans'),
      entry('https://a.test/pricing/plans'),
      entry('https://a.test/about'),
      entry('https://a.test/pricing'),
    ];
    expect(rankEntries(entries, 'pricing plans').map((e) => e.url.slice(15))).toEqual([
      'pricing/plans',
      'plans',
      'pricing',
      'blog',
      'about',
    ]);
    expect(rankEntries(entries, undefined)).toEqual(entries);
    expect(rankEntries(entries, ' ! ')).toEqual(entries);
  });
});

describe('parseSitemapEntries', () => {
  it('reads each url with its lastmod (CDATA, entities, prefixes), and an index', () => {
    const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <!-- <url><loc>https://a.test/commented</loc></url> -->
      <url><loc> https://a.test/a?x=1&amp;y=2 </loc><lastmod>2026-01-02</lastmod><priority>0.5</priority></url>
      <url><lastmod></lastmod><loc><![CDATA[https://a.test/b]]></loc></url>
      <url><priority>1</priority></url>
      <s:url><s:loc>https://a.test/c</s:loc><s:lastmod>2026-02-03T04:05:06Z</s:lastmod></s:url>
    </urlset>`;
    expect(parseSitemapEntries(xml)).toEqual({
      kind: 'urlset',
      entries: [
        { loc: 'https://a.test/a?x=1&y=2', lastmod: '2026-01-02' },
        { loc: 'https://a.test/b', lastmod: null },
        { loc: 'https://a.test/c', lastmod: '2026-02-03T04:05:06Z' },
      ],
    });
    const index =
      '<sitemapindex><sitemap><loc>https://a.test/s1.xml.gz</loc><lastmod>2026-01-01</lastmod></sitemap></sitemapindex>';
    expect(parseSitemapEntries(index)).toEqual({
      kind: 'index',
      entries: [{ loc: 'https://a.test/s1.xml.gz', lastmod: '2026-01-01' }],
    });
    expect(parseSitemapEntries(xml, 1).entries).toHaveLength(1);
  });
});
