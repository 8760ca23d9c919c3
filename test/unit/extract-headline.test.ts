/** metadata.headline is the page's own headline, without the site's name; metadata.title stays the <title>. */
import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/domain/extract';
import type { ExtractSpec } from '../../src/domain/extract/spec-schema';

const pages = import.meta.glob<string>('../fixtures/extract/pages/python-functions.html', {
  query: '?raw',
  import: 'default',
  eager: true,
});
const PYTHON_FUNCTIONS = pages['../fixtures/extract/pages/python-functions.html'] ?? '';

const SPEC: ExtractSpec = { formats: ['metadata'], mainContent: true, include: [], exclude: [], fields: {} };
const extract = (html: string, url = 'https://docs.python.org/3/library/functions.html') =>
  extractPage(new TextEncoder().encode(html), 'text/html; charset=utf-8', url, SPEC);

describe('metadata.headline: the page headline, without the site name', () => {
  const head = (inner: string, body = '<p>x</p>') => `<html><head>${inner}</head><body>${body}</body></html>`;
  const headline = async (html: string) => (await extract(html, 'https://example.com/a/b')).record.metadata?.headline;

  it('the h1 the <title> starts with; title stays the <title>', async () => {
    const { record } = await extract(PYTHON_FUNCTIONS);
    expect(record.metadata).toMatchObject({
      title: 'Built-in Functions — Python 3.12.1 documentation',
      headline: 'Built-in Functions',
    });
  });

  it("a site's name after or before the title, as og:site_name, application-name or a logo h1 says", async () => {
    expect(
      await headline(
        head('<title>Hermitian matrix - Wikipedia</title><meta property="og:site_name" content="Wikipedia">'),
      ),
    ).toBe('Hermitian matrix');
    expect(
      await headline(
        head(
          '<meta property="og:title" content="Story | News Site"><meta property="og:site_name" content="News Site">',
        ),
      ),
    ).toBe('Story');
    expect(
      await headline(head('<title>Site: A story of a day</title><meta name="application-name" content="Site">')),
    ).toBe('A story of a day');
    expect(
      await headline(
        head('<title>Tragwerksplanung | RS Ingenieure</title>', '<h1><a href="/">RS Ingenieure</a></h1><p>x</p>'),
      ),
    ).toBe('Tragwerksplanung');
  });

  it('keeps words that only look like a site name: hyphenated words, an og:site_name holding the title', async () => {
    expect(
      await headline(
        head('<title>Privatkredit-Zinsen im Vergleich</title><meta property="og:site_name" content="Privatkredit">'),
      ),
    ).toBe('Privatkredit-Zinsen im Vergleich');
    expect(
      await headline(
        head(
          '<meta property="og:title" content="Bürgerbeteiligung für Windpark Steinheim | EnBW"><meta property="og:site_name" content="Bürgerbeteiligung für Windpark Steinheim">',
        ),
      ),
    ).toBe('Bürgerbeteiligung für Windpark Steinheim | EnBW');
    // An h1 at the end of the <title> is the site's more often than the page's: the cleaned <title> decides.
    expect(
      await headline(head('<title>Kleine Schafskunde für alle Leser | Mäscot</title>', '<h1>Mäscot</h1><p>x</p>')),
    ).toBe('Kleine Schafskunde für alle Leser');
  });
});
