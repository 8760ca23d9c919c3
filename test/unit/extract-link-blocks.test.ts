/**
 * Blocks of links inside the main content are content (a table of linked names, a list of an API's functions, a
 * product's tags); navigation around and inside the content (menus, breadcrumbs, related posts, footers) is not.
 * The pages are test/fixtures/extract/pages/*.html, which the docs truth measures too (scripts/lib/docs-sets.ts).
 */
import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/domain/extract';
import { parseBounded } from '../../src/domain/extract/dom';
import { declaresProduct } from '../../src/domain/extract/product';
import type { ExtractSpec } from '../../src/domain/extract/spec-schema';

const pages = import.meta.glob<string>('../fixtures/extract/pages/*.html', {
  query: '?raw',
  import: 'default',
  eager: true,
});
const page = (name: string) => {
  const html = pages[`../fixtures/extract/pages/${name}.html`];
  if (!html) throw new Error(`no fixture ${name}`);
  return html;
};

const SPEC: ExtractSpec = {
  formats: ['markdown', 'text', 'metadata'],
  mainContent: true,
  include: [],
  exclude: [],
  fields: {},
};
const extract = (html: string, url = 'https://docs.python.org/3/library/functions.html', spec = SPEC) =>
  extractPage(new TextEncoder().encode(html), 'text/html; charset=utf-8', url, spec);

/** The 71 names of the Python docs' table of built-in functions, from the fixture itself. */
const BUILTINS = [
  ...page('python-functions').matchAll(
    /<div class="line"><a [^>]*href="(#[^"]+)"[^>]*><code[^>]*><span class="pre">([^<]+)</g,
  ),
];

describe('a table of linked names inside the content', () => {
  it('the Python docs: every one of the 71 built-ins in the table, each a link; the sidebar out', async () => {
    expect(BUILTINS).toHaveLength(71);
    const { outputs, record } = await extract(page('python-functions'));
    const markdown = outputs.markdown ?? '';
    const table = markdown.split('\n').filter((line) => line.startsWith('|'));
    expect(table[0]).toBe('| Built-in Functions |  |  |  |');
    expect(table).toHaveLength(3);
    // Each name is in a cell of the table's one row, as a link to its definition.
    for (const [, anchor, name] of BUILTINS)
      expect(table[2]).toContain(`[\`${name}\`](https://docs.python.org/3/library/functions.html${anchor})`);
    expect(table[2]).toMatch(/^\| \*\*A\*\* \[`abs\(\)`\]/);
    expect(markdown).toContain('Iterate over several iterables in parallel');
    for (const furniture of ['Table of Contents', 'Previous topic', 'Report a Bug', 'Copyright', 'modules'])
      expect(outputs.text).not.toContain(furniture);
    expect(record.warnings).toEqual([]);
  });

  it('a table of downloads with links in each cell, a list of linked function names; menus in <main> out', async () => {
    const { outputs } = await extract(page('docs-navigation'), 'https://skiff.example.org/2.4/install/');
    const markdown = outputs.markdown ?? '';
    expect(markdown).toContain(
      '| Linux | [skiff-2.4.1-linux-amd64.tar.gz](https://skiff.example.org/dl/skiff-2.4.1-linux-amd64.tar.gz) [skiff-2.4.1-linux-arm64.tar.gz]',
    );
    expect(markdown).toContain('| Windows | [skiff-2.4.1-windows-amd64.zip]');
    for (const name of ['connect', 'upload', 'download', 'list_objects'])
      expect(markdown).toContain(`- [\`skiff.${name}()\`](https://skiff.example.org/2.4/api/#skiff.${name})`);
    expect(markdown.startsWith('# Installing Skiff')).toBe(true);
    for (const furniture of [
      '2.4 (stable)',
      'latest development',
      'Previous: Skiff',
      'Next: Tutorial',
      'Skiff 2.4 overview',
    ])
      expect(outputs.text).not.toContain(furniture);
  });
});

describe("a product's tags inside its description", () => {
  it('are kept as a list of links; the menu, breadcrumbs, related products and footer are not', async () => {
    const { outputs } = await extract(page('product-tags'), 'https://shop.example.com/products/linen-camp-shirt');
    const markdown = outputs.markdown ?? '';
    for (const [tag, slug] of [
      ['linen', 'linen'],
      ['summer', 'summer'],
      ['camp collar', 'camp-collar'],
      ['made in Portugal', 'made-in-portugal'],
      ['relaxed fit', 'relaxed-fit'],
    ])
      expect(markdown).toContain(`- [${tag}](https://shop.example.com/collections/all/${slug})`);
    expect(markdown).toContain('Made in Portugal in a family-run workshop');
    for (const furniture of [
      'New arrivals',
      'Find a store',
      'Home page',
      'Shirts and overshirts',
      'You may also like',
      'Linen drawstring trousers',
      'Returns and exchanges',
      'The Northwind story',
    ])
      expect(outputs.text).not.toContain(furniture);
  });

  it('a page says it is a product by og:type, JSON-LD (graphs too) or microdata; an article does not', () => {
    const says = (head: string, body = '', jsonLd: unknown[] = []) =>
      declaresProduct(
        parseBounded(`<html><head>${head}</head><body>${body}</body></html>`, []).document,
        jsonLd as never[],
        /og:type" content="([^"]+)"/.exec(head)?.[1],
      );
    expect(says('<meta property="og:type" content="product.item">')).toBe(true);
    expect(says('', '', [{ '@type': ['Thing', 'schema:Product'] }])).toBe(true);
    expect(says('', '<div itemscope itemtype="https://schema.org/IndividualProduct"></div>')).toBe(true);
    expect(says('<meta property="og:type" content="article">', '', [{ '@type': 'NewsArticle' }])).toBe(false);
  });
});

describe('navigation inside the content stays out', () => {
  it("a post's breadcrumbs, menu of sections, sharing, tags, related posts and the author's other posts", async () => {
    const { outputs } = await extract(page('blog-navigation'), 'https://trailnotes.example.net/2024/06/stubai/');
    const text = outputs.text ?? '';
    expect(text.startsWith('Three days on the Stubai High Trail')).toBe(true);
    expect(text).toContain('A sleeping-bag liner, which every Alpine Club hut asks for');
    expect(text).toContain('write it up here.');
    for (const furniture of [
      'Hiking routes',
      'Austrian Alps',
      'Hut-to-hut walks',
      'Share on',
      'Tags:',
      'hut to hut',
      'Related posts',
      'Carnic High Trail',
      'More from this author',
      'leather boots',
      'Snowshoeing',
      'Privacy policy',
      'powered by WordPress',
    ])
      expect(text).not.toContain(furniture);
  });
});
