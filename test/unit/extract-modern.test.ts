import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/domain/extract';
import { bodyOf, collapse, parseBounded } from '../../src/domain/extract/dom';
import { compared } from '../../src/domain/extract/main/baseline';
import type { ExtractSpec } from '../../src/domain/extract/spec-schema';
import {
  DISCOURSE_THREAD,
  MARKETING_PAGE,
  PRODUCT_PAGE,
  PYTHON_BUILTINS,
  RECIPE_BESIDE_DISCLAIMER,
} from '../fixtures/extract/modern';

const SPEC: ExtractSpec = { formats: ['markdown', 'text'], mainContent: true, include: [], exclude: [], fields: {} };
const extract = async (html: string) =>
  (await extractPage(new TextEncoder().encode(html), 'text/html; charset=utf-8', 'https://example.com/page', SPEC))
    .outputs;

describe('main content: pages as sites serve them today', () => {
  it('a Discourse thread: the posts inside <noscript> are read (the body is an app shell), its furniture is not', async () => {
    const { markdown = '' } = await extract(DISCOURSE_THREAD);
    expect(markdown).toMatch(/^# Cache invalidation after deploy/);
    for (const post of [
      'the first post 1',
      'the first post 2',
      'the second post answers 1',
      'the third post reports 1',
    ])
      expect(markdown).toContain(post);
    expect(markdown).toContain('assets/app-3f9a1c.css');
    for (const furniture of ['Another question about caching', 'Terms of Service', 'Powered by', 'Related topics'])
      expect(markdown).not.toContain(furniture);
  });

  it('the Python docs: the Built-in Functions table of linked names is content, the sidebar and footer are not', async () => {
    const { markdown = '' } = await extract(PYTHON_BUILTINS);
    expect(markdown).toMatch(/^# Built-in Functions/);
    expect(markdown).toContain('| Built-in Functions |');
    for (const name of ['abs()', 'breakpoint()', 'frozenset()', 'memoryview()', 'zip()'])
      expect(markdown).toContain(`[\`${name}\`](https://example.com/page#${name.slice(0, -2)})`);
    expect(markdown).toContain('Iterate over several iterables in parallel');
    for (const furniture of ['Report a bug', 'Previous topic', 'Please donate', 'Quick search'])
      expect(markdown).not.toContain(furniture);
  });

  it("a product page: the description and the product's facts, not the carousel's instructions", async () => {
    const { markdown = '' } = await extract(PRODUCT_PAGE);
    // The gallery's pictures come first, as on the page.
    expect(markdown).toContain('![Trail Runner 3, view 1](https://example.com/img/shoe-1.jpg)');
    expect(markdown).toContain('\n# Trail Runner 3\n');
    expect(markdown).toContain('light trail shoe for long runs');
    expect(markdown).toContain('rock plate protects the foot');
    expect(markdown).toContain('Drop: 6 mm');
    for (const furniture of ['arrow keys', 'Slide 1 of 6', 'Shipping', 'All prices include VAT'])
      expect(markdown).not.toContain(furniture);
  });

  it("a marketing page: the copy of each section, not the mega menu's long link labels", async () => {
    const { markdown = '' } = await extract(MARKETING_PAGE);
    expect(markdown).toMatch(/^# Know your customers/);
    for (const copy of ['without writing a single query', 'from sales to support', 'encrypted at rest'])
      expect(markdown).toContain(copy);
    for (const furniture of ['Dashboards your whole company can read', 'remote-first team'])
      expect(markdown).not.toContain(furniture);
  });

  it('a short content that misses most of the prose gives way to the baseline (the whole body pruned); a good one stays', () => {
    const { document } = parseBounded(RECIPE_BESIDE_DISCLAIMER, []);
    const body = bodyOf(document);
    const pickOf = (selector: string) => document.querySelector(selector) ?? body;
    const kind = { product: false };
    // The first extraction took the disclaimer box: the baseline holds several times its prose.
    const missed = compared(
      { root: pickOf('#sidebar .widget'), pick: 'density', bodyProse: 10_000, bodyTalk: 0, notes: [] },
      () => body.cloneNode(true),
      kind,
    );
    expect(missed.root).not.toBe(pickOf('#sidebar .widget'));
    const text = collapse(missed.root.textContent);
    for (const line of ['300 g flour', '1 egg yolk', 'Bake them for 15 minutes']) expect(text).toContain(line);
    expect(text).not.toContain('Despite careful checks');
    // The article itself is kept as found.
    const article = pickOf('.entry');
    expect(
      compared(
        { root: article, pick: 'structure', bodyProse: 10_000, bodyTalk: 0, notes: [] },
        () => body.cloneNode(true),
        kind,
      ),
    ).toEqual({
      root: article,
      pick: 'structure',
    });
  });
});
