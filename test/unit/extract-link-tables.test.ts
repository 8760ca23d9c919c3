/**
 * A table whose cells are mostly links is still a table: an API's index of functions with one-line summaries, a
 * wrapped grid of linked names. Such tables in documentation had no header cell and sat in a wrapper (a `div`) that
 * the rule on blocks of links cut whole.
 */
import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/domain/extract';
import type { ExtractSpec } from '../../src/domain/extract/spec-schema';

const SPEC: ExtractSpec = { formats: ['markdown'], mainContent: true, include: [], exclude: [], fields: {} };
const extract = async (html: string) =>
  (await extractPage(new TextEncoder().encode(html), 'text/html; charset=utf-8', 'https://docs.example/api/', SPEC))
    .outputs.markdown ?? '';

const prose = (topic: string) =>
  `<p>The ${topic} module gathers the functions that read and write the archive format. Each function takes a path and
  returns a handle; errors are raised as exceptions of their own, described in the section on errors below.</p>`;
const rows = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<tr><td><a href="fn${i}.html"><code>read_entry_${i}()</code></a></td><td><a href="t${i}.html">Entry ${i}</a></td></tr>`,
  ).join('');
const page = (table: string) => `<!doctype html><html><head><title>archive — API</title></head><body>
  <nav><ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="/m${i}">Module ${i}</a></li>`).join('')}</ul></nav>
  <main><h1>archive</h1>${prose('archive')}<h2>Functions</h2>${table}${prose('same')}</main>
  <footer><a href="/about">About</a> · <a href="/legal">Legal</a></footer></body></html>`;

describe('tables of links in the content', () => {
  it('keeps a wrapped table of linked names with no header cell', async () => {
    const markdown = await extract(
      page(`<div class="table-wrapper"><table class="autosummary">${rows(12)}</table></div>`),
    );
    for (const i of [0, 5, 11]) expect(markdown).toContain(`read_entry_${i}()`);
    expect(markdown).toMatch(/\|.*read_entry_0\(\).*\|.*Entry 0.*\|/);
    expect(markdown).not.toContain('Module 3');
  });

  it('keeps the same table unwrapped, with a header row', async () => {
    const markdown = await extract(page(`<table><tr><th>Function</th><th>Entry</th></tr>${rows(8)}</table>`));
    expect(markdown).toContain('read_entry_7()');
  });

  it('keeps a section of its own holding a heading and a table of links (Sphinx wraps each in a section)', async () => {
    const cells = Array.from(
      { length: 10 },
      (_, i) => `<tr><td><a href="f${i}.html">entry${i}</a></td><td><a href="g${i}">Entry ${i}</a></td></tr>`,
    ).join('');
    const markdown = await extract(
      page('').replace('<h2>Functions</h2>', `<section class="api"><h2>Index</h2><table>${cells}</table></section>`),
    );
    expect(markdown).toContain('## Index');
    expect(markdown).toMatch(/\| \[entry9\]\(.*\) \| \[Entry 9\]\(.*\) \|/);
  });

  it('still cuts a wrapped list of links (navigation) from the content', async () => {
    const list = `<div class="related"><ul>${Array.from({ length: 12 }, (_, i) => `<li><a href="p${i}">Related page ${i}</a></li>`).join('')}</ul></div>`;
    const markdown = await extract(page(list));
    expect(markdown).not.toContain('Related page 4');
  });
});
