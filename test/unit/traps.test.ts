import { describe, expect, it } from 'vitest';
import { repeatedSegments, tooDeep } from '../../src/domain/traps/paths';
import {
  PATTERN_SIMILAR,
  PATTERN_WINDOW,
  paramIgnored,
  paramMatters,
  paramsDiffering,
  paramsOf,
  pathGroup,
  patternTrapped,
  shapeGroup,
  withoutParams,
} from '../../src/domain/traps/patterns';
import { allTraps, TRAP_RULES, trapReason, trapSettingsSchema } from '../../src/domain/traps/rules';
import { isSoft404, probeOf, readsAsNotFound } from '../../src/domain/traps/soft-404';
import { compileUrlCleaner } from '../../src/domain/url/link-policy';
import { isSessionParam, stripSessionParams } from '../../src/domain/url/session-params';

describe('session ids and tracking parameters', () => {
  it('are stripped, whatever their case, and every other parameter kept as written, in order', () => {
    expect(stripSessionParams('https://a.test/p?utm_source=x&b=2&sid=ab12&utm_MEDIUM=y&a=1')).toBe(
      'https://a.test/p?b=2&a=1',
    );
    expect(stripSessionParams('https://a.test/p?PHPSESSID=1&jsessionid=2&sessionid=3&gclid=4&fbclid=5')).toBe(
      'https://a.test/p',
    );
    expect(stripSessionParams('https://a.test/shop;jsessionid=A1B2C3/item?id=7')).toBe('https://a.test/shop/item?id=7');
    expect(stripSessionParams('https://a.test/p;JSESSIONID=A1')).toBe('https://a.test/p');
    // Nothing to strip: the very same string (a query's empty pairs and order untouched).
    const plain = 'https://a.test/p?a=1&&b=2';
    expect(stripSessionParams(plain)).toBe(plain);
    expect(stripSessionParams('https://a.test/')).toBe('https://a.test/');
    // Names that merely contain a listed one are not listed: a story id, a search.
    expect(stripSessionParams('https://a.test/p?sidebar=1&s=shoes&session_length=3')).toBe(
      'https://a.test/p?sidebar=1&s=shoes&session_length=3',
    );
    expect(isSessionParam('utm%5Fcampaign')).toBe(true);
    expect(isSessionParam('aspsessionidqqabc')).toBe(true);
  });

  it('are kept by a crawl that turns the rule off', () => {
    const keep = compileUrlCleaner({ traps: { sessionParams: false } });
    expect(keep('https://a.test/p?sid=1')).toBe('https://a.test/p?sid=1');
    expect(compileUrlCleaner({ traps: { sessionParams: true } })('https://a.test/p?sid=1')).toBe('https://a.test/p');
  });

  it('with ignoreQuery, every URL loses its whole query: URLs that differ only by it are one', () => {
    const fold = compileUrlCleaner({ traps: { sessionParams: true }, ignoreQuery: true });
    expect(fold('https://a.test/p?b=2&a=1')).toBe('https://a.test/p');
    expect(fold('https://a.test/p?')).toBe('https://a.test/p');
    expect(fold('https://a.test/p')).toBe('https://a.test/p');
  });
});

describe('paths that repeat themselves (repeatedSegments)', () => {
  it('finds a segment or a run of up to three repeated three times in a row, or a segment four times', () => {
    expect(repeatedSegments('https://a.test/docs/guide/guide/guide/')?.pattern).toBe('/guide/ 3 times in a row');
    expect(repeatedSegments('https://a.test/a/b/a/b/a/b/c')?.pattern).toBe('/a/b/ 3 times in a row');
    expect(repeatedSegments('https://a.test/x/y/z/x/y/z/x/y/z/')?.pattern).toBe('/x/y/z/ 3 times in a row');
    expect(repeatedSegments('https://a.test/a/x/a/y/a/z/a/')?.pattern).toBe('/a/ 4 times');
  });

  it('leaves real paths alone: a segment twice, dates, versions', () => {
    for (const url of [
      'https://a.test/docs/docs/intro',
      'https://a.test/2024/01/01/news/',
      'https://a.test/v1/api/v1/users',
      'https://a.test/en/blog/en/post',
      'https://a.test/',
    ])
      expect(repeatedSegments(url), url).toBeNull();
  });
});

describe('paths far deeper than the host goes (deepPaths)', () => {
  it('allows ten segments always, and four more than the deepest page of its own', () => {
    const deep = (n: number) => `https://a.test/${Array.from({ length: n }, (_, i) => `s${i}`).join('/')}`;
    expect(tooDeep(deep(10), 0)).toBeNull();
    expect(tooDeep(deep(11), 0)?.rule).toBe('deepPaths');
    expect(tooDeep(deep(13), 9)).toBeNull();
    expect(tooDeep(deep(14), 9)?.pattern).toBe("14 path segments, past 13 (the host's pages of their own reach 9)");
  });
});

describe('URL patterns of near-identical pages (urlPatterns)', () => {
  it('groups a path with its queries, and a path by its shape with digits masked', () => {
    expect(pathGroup('https://a.test/shop/?color=red&size=m')).toBe('https://a.test/shop/');
    expect(shapeGroup('https://a.test/events/2027/01/')).toBe('https://a.test/events/{n}/{n}/');
    expect(shapeGroup('https://a.test/about/')).toBeNull();
    expect(shapeGroup('https://a.test:8080/p12.html?x=1')).toBe('https://a.test:8080/p{n}.html');
  });

  it("is a trap when most of a group's recent pages repeated one before them", () => {
    const window = (similar: number) => [
      ...Array.from({ length: PATTERN_WINDOW - similar }, () => false),
      ...Array.from({ length: similar }, () => true),
    ];
    expect(patternTrapped(window(PATTERN_SIMILAR))).toBe(true);
    expect(patternTrapped(window(PATTERN_SIMILAR - 1))).toBe(false);
    // Only the recent window counts: pages of their own long ago do not hide pagination past the end.
    expect(patternTrapped([...Array.from({ length: 40 }, () => false), ...window(PATTERN_SIMILAR)])).toBe(true);
  });

  it('tells which parameters two URLs differ in, and ignores one that never changed a page', () => {
    const a = paramsOf('https://a.test/shop/?color=red&page=2');
    const b = paramsOf('https://a.test/shop/?page=2');
    expect(paramsDiffering(a, b)).toEqual(['color']);
    expect(paramsDiffering(a, a)).toEqual([]);
    expect(paramIgnored({ same: 3, differs: 0 })).toBe(true);
    expect(paramIgnored({ same: 9, differs: 1 })).toBe(false);
    expect(paramIgnored({ same: 2, differs: 0 })).toBe(false);
    // A parameter that passes a trapped group: it changed the page more often than not (a real ?page=2), not a
    // calendar's month that had an event once among empty ones.
    expect(paramMatters({ same: 0, differs: 3 })).toBe(true);
    expect(paramMatters({ same: 4, differs: 1 })).toBe(false);
    expect(paramMatters(undefined)).toBe(false);
    expect(withoutParams('https://a.test/p?visit=9&id=3', new Set(['visit']))).toBe('https://a.test/p?id=3');
    expect(withoutParams('https://a.test/p?visit=9', new Set(['visit']))).toBe('https://a.test/p');
  });
});

describe('soft 404s', () => {
  it('read a page as not found by its title, heading or opening words, in several languages', () => {
    const page = (title: string, text = 'Welcome.') => ({ title, heading: null, text });
    for (const title of [
      'Page not found',
      '404 - Oops',
      "This page doesn't exist",
      'We could not find that page',
      'Seite nicht gefunden',
      'Page introuvable',
      'Página no encontrada',
      'ページが見つかりません',
    ])
      expect(readsAsNotFound(page(title)), title).toBe(true);
    expect(readsAsNotFound({ title: 'Home', heading: null, text: 'Sorry, nothing here. Try the search.' })).toBe(true);
    for (const title of ['Our bakery', 'Found: the lost city of Z', 'Error handling in Rust'])
      expect(readsAsNotFound(page(title)), title).toBe(false);
  });

  it('is one only when the host answers 2xx for a made-up path too, and that answer is the same page', () => {
    expect(isSoft404({ status: 404, readsAsNotFound: false, sketch: null }, false)).toBe(false);
    expect(isSoft404({ status: 200, readsAsNotFound: true, sketch: 'x' }, false)).toBe(true);
    expect(isSoft404({ status: 200, readsAsNotFound: false, sketch: 'x' }, true)).toBe(true);
    expect(isSoft404({ status: 200, readsAsNotFound: false, sketch: 'x' }, false)).toBe(false);
    expect(isSoft404({ status: 301, readsAsNotFound: false, sketch: null }, false)).toBe(false);
    expect(isSoft404(null, true)).toBe(false);
  });

  it("asks for a made-up path in the page's own directory", () => {
    expect(probeOf('https://a.test/docs/old/page.html?x=1', 'zz')).toEqual({
      key: 'https://a.test/docs/old/',
      url: 'https://a.test/docs/old/zz',
    });
    expect(probeOf('https://a.test/gone.html', 'zz')).toEqual({ key: 'https://a.test/', url: 'https://a.test/zz' });
  });
});

describe('trap settings', () => {
  it('turn every rule on unless told, each off alone, and refuse a rule it does not know', () => {
    expect(trapSettingsSchema.parse({})).toEqual(allTraps());
    expect(trapSettingsSchema.parse({ soft404: false })).toEqual({ ...allTraps(), soft404: false });
    expect(trapSettingsSchema.safeParse({ calendars: false }).success).toBe(false);
    expect(Object.keys(allTraps())).toEqual([...TRAP_RULES]);
    expect(trapReason({ rule: 'urlPatterns', pattern: 'https://a.test/events/{n}/' })).toBe(
      'trap: urlPatterns (https://a.test/events/{n}/)',
    );
  });
});
