import { describe, expect, it } from 'vitest';
import {
  hammingDistance,
  NEAR_DUPLICATE_DISTANCE,
  NEAR_DUPLICATE_SIMILARITY,
  SKETCH_DESIGN,
  similarity,
  sketch,
  TEMPLATE_DISTANCE,
  TEMPLATE_SIMILARITY,
  templateSketch,
} from '../../src/domain/similarity/sketch';
import { tokenize } from '../../src/domain/similarity/tokens';
import { FORMAT_DURATION, PARSE_DATE, PRODUCT_PAGES, PRODUCTS, RYE, SOURDOUGH } from './similarity-texts';

const K = NEAR_DUPLICATE_DISTANCE;
const KT = TEMPLATE_DISTANCE;

function distance(a: string, b: string): number {
  const [x, y] = [sketch(a), sketch(b)];
  if (x === null || y === null) throw new Error('no sketch');
  return hammingDistance(x, y);
}

function templateDistance(a: { text: string; url: string }, b: { text: string; url: string }): number {
  const [x, y] = [templateSketch(a.text, a.url), templateSketch(b.text, b.url)];
  if (x === null || y === null) throw new Error('no sketch');
  return hammingDistance(x, y);
}

/** The same lines in another order (a fixed permutation). */
const resorted = (lines: string[]) => lines.map((_, i) => lines[(i * 7 + 3) % lines.length] as string);

describe('sketch', () => {
  it('is 16 hex characters, the same for the same text, and null for a text without a word', () => {
    expect(sketch(SOURDOUGH)).toMatch(/^[0-9a-f]{16}$/);
    expect(sketch(SOURDOUGH)).toBe(sketch(SOURDOUGH));
    expect(sketch('')).toBeNull();
    expect(sketch(' — ... ! ')).toBeNull();
  });

  it('reads a list under another sort order as the same text', () => {
    expect(resorted(PRODUCTS).sort()).toEqual([...PRODUCTS].sort());
    expect(distance(PRODUCTS.join('\n'), resorted(PRODUCTS).join('\n'))).toBe(0);
  });

  it('reads a page whose view counter, session id or timestamp changed as near-identical', () => {
    expect(distance(`${SOURDOUGH}\n1,234 views`, `${SOURDOUGH}\n1,301 views`)).toBeLessThanOrEqual(K);
    expect(distance(`${RYE}\nSession 4f9a1c`, `${RYE}\nSession 77b02e`)).toBeLessThanOrEqual(K);
    const updated = (stamp: string) => `Last updated: ${stamp}\n${SOURDOUGH}\n${RYE}`;
    expect(distance(updated('5 March 2031, 10:41'), updated('6 March 2031, 09:12'))).toBeLessThanOrEqual(K);
  });

  it('keeps two articles on one topic far apart', () => {
    const d = distance(SOURDOUGH, RYE);
    expect(d).toBeGreaterThan(K + 8);
    expect(similarity(sketch(SOURDOUGH) ?? '', sketch(RYE) ?? '')).toBeLessThan(0.8);
  });

  it("keeps two pages of one library's reference, on one template, apart", () => {
    expect(distance(PARSE_DATE, FORMAT_DURATION)).toBeGreaterThan(K + 4);
  });

  it('ignores case and punctuation', () => {
    expect(sketch('The Quick, brown fox -- jumps over the lazy dog; again and again!')).toBe(
      sketch('the quick brown fox jumps over the lazy dog again and again'),
    );
  });

  it('reads letters of any script, and scripts without spaces by character bigrams', () => {
    expect(tokenize('Привет, мир! Ελληνικά κείμενα').a).toHaveLength(4);
    expect(tokenize('東京都').a).toHaveLength(2); // 東京, 京都
    expect(tokenize('東').a).toHaveLength(1);
    expect(tokenize('ภาษาไทย').a).toHaveLength(6);
    expect(tokenize('Tokyo東京 2031年').a).toHaveLength(4); // tokyo, 東京, 2031, 年
    // A character outside the BMP is one character of a bigram.
    expect(tokenize('𠀋𠀌𠀍').a).toHaveLength(2);
  });

  it(`hashes a text under ${SKETCH_DESIGN.minTokens} tokens exactly: the same tokens alike, any other far`, () => {
    expect(sketch('Page not found')).toBe(sketch('page, not found!'));
    expect(distance('Page not found', 'Page not founds')).toBeGreaterThan(K + 8);
    expect(distance('Out of stock', 'Back in stock')).toBeGreaterThan(K + 8);
  });

  it('counts differing bits and similarity over 64; the thresholds as both', () => {
    expect(hammingDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hammingDistance('8000000000000001', '0000000000000000')).toBe(2);
    expect(similarity('0123456789abcdef', '0123456789abcdee')).toBe(1 - 1 / 64);
    expect(similarity('0000000000000000', '0000000000000007')).toBe(NEAR_DUPLICATE_SIMILARITY);
    expect(similarity('0000000000000000', '0000000000000007')).toBe(TEMPLATE_SIMILARITY);
    expect(NEAR_DUPLICATE_SIMILARITY).toBeCloseTo(0.953, 3);
  });
});

const MONTHS = 'January February March April May June July August September October November December'.split(' ');

/** One month of an events calendar: its title, the weekdays, the grid of days, no events, the months around it. */
function monthPage(year: number, month: number) {
  const name = (m: number) => `${MONTHS[(m + 12) % 12]} ${year + Math.floor(m / 12)}`;
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const rows = [];
  for (let day = 1; day <= days; day += 7)
    rows.push(Array.from({ length: Math.min(7, days - day + 1) }, (_, k) => day + k).join(' '));
  const text = [
    `Events in ${name(month)}`,
    'Mon Tue Wed Thu Fri Sat Sun',
    ...rows,
    'There are no events this month. Subscribe to the calendar to hear of new ones.',
    `« ${name(month - 1)} | ${name(month + 1)} »`,
  ].join('\n');
  return { text, url: `https://example.org/events/${year}/${String(month + 1).padStart(2, '0')}/` };
}

describe('templateSketch', () => {
  it("reads a calendar's months as one page, which the plain sketch does not", () => {
    const months = Array.from({ length: 24 }, (_, m) => monthPage(2031 + Math.floor(m / 12), m % 12));
    for (const page of months.slice(1)) {
      expect(templateDistance(months[0] as { text: string; url: string }, page)).toBe(0);
      expect(distance(months[0]?.text ?? '', page.text)).toBeGreaterThan(K);
    }
  });

  it('reads not-found pages that echo their own paths as one page', () => {
    const notFound = (path: string) => ({
      text: `Page not found\nSorry, we could not find ${path}. The page may have moved, or the address may be mistyped.\nSearch the shop, or go back to the home page.`,
      url: `https://shop.example${path}`,
    });
    const pages = ['/shoes/red-running-shoes-42', '/2031/03/spring-sale/index.html', '/de/über-uns'].map(notFound);
    for (const page of pages.slice(1))
      expect(templateDistance(pages[0] as { text: string; url: string }, page)).toBe(0);
    // A limit: a path of the fixed text's own words ('the page') takes them out of its sentences too.
    expect(templateDistance(pages[0] as { text: string; url: string }, notFound('/the-page-was-here'))).toBeGreaterThan(
      0,
    );
  });

  it('reads the facets of one list, re-sorted, and the session ids of one page as one page', () => {
    const facet = (key: string, value: string, lines: string[]) => ({
      text: [`Showing ${lines.length} items, ${key}: ${value}`, ...lines].join('\n'),
      url: `https://shop.example/list?${key}=${encodeURIComponent(value)}`,
    });
    expect(templateDistance(facet('sort', 'relevance', PRODUCTS), facet('sort', 'price', resorted(PRODUCTS)))).toBe(0);
    const session = (sid: string) => ({
      text: `${SOURDOUGH}\nSession ${sid}`,
      url: `https://example.org/a?sid=${sid}`,
    });
    expect(templateDistance(session('4f9a1c0d'), session('77b02e9e'))).toBe(0);
  });

  it("keeps a shop's short product pages on one template apart", () => {
    for (const [i, a] of PRODUCT_PAGES.entries())
      for (const b of PRODUCT_PAGES.slice(i + 1)) expect(templateDistance(a, b)).toBeGreaterThan(KT + 2);
  });
});
