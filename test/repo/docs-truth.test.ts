/** The docs bench's truth and scoring (scripts/lib/docs-page.ts, docs-score.ts) on a small Sphinx-like page and the test pages. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageTruth } from '../../scripts/lib/docs-page.ts';
import { scorePage } from '../../scripts/lib/docs-score.ts';
import { DOCS_SETS, type DocsSet } from '../../scripts/lib/docs-sets.ts';
import { sampleSet } from '../../scripts/lib/docs-truth.ts';

const SET: DocsSet = { name: 'sphinx', root: '/nowhere', main: 'div[role=main]', drop: 'a.headerlink' };
const HTML = `<html><body>
<div class="sphinxsidebar" role="navigation"><a href="prev.html">Previous topic here</a><a href="x.html">Sidebar entry link</a></div>
<div class="body" role="main"><section><h1>json — JSON encoder<a class="headerlink" href="#json">¶</a></h1>
<p>Encode and decode the JSON format, with enough words to count as content for the truth.</p><p>Second block</p>
<div class="highlight-python3"><div class="highlight"><pre><span>import</span> json
print(json.dumps([1, 2]))
</pre></div></div>
<div class="highlight-default"><pre>plain</pre></div>
<table class="docutils"><tr><th>a</th><th>b</th></tr><tr><td colspan="2">c</td></tr></table>
<table class="highlighttable"><tr><td><pre>1</pre></td><td><pre>x</pre></td></tr></table>
</section></div></body></html>`;

describe('docs truth', () => {
  const page = pageTruth(SET, '/nowhere/json.html', 'http://docs.local/sphinx/json.html', HTML);

  it('reads the main block: text without permalink signs, blocks apart, code and data tables, title, navigation', () => {
    expect(page?.h1).toBe('json — JSON encoder');
    expect(page?.text).not.toContain('¶');
    expect(page?.text).toContain('truth.\nSecond block');
    expect(page?.codes.slice(0, 2)).toEqual([
      { text: 'import json\nprint(json.dumps([1, 2]))', language: 'python3' },
      { text: 'plain', language: null },
    ]);
    expect(page?.tables).toEqual([{ rows: 2, cols: 2 }]);
    expect(page?.navTexts).toEqual(['Previous topic here', 'Sidebar entry link']);
  });

  it('skips redirects', () => {
    expect(pageTruth(SET, 'f', 'u', '<meta http-equiv="refresh" content="0; url=x.html">')).toBeNull();
  });

  it('scores a faithful Markdown full marks, and a leaky one down', () => {
    if (!page) throw new Error('no truth');
    const markdown = [
      '# json — JSON encoder¶',
      page.text.split('\n').slice(1, 3).join('\n\n'),
      '```python3\nimport json\nprint(json.dumps([1, 2]))\n```',
      '```\nplain\n```',
      '| a | b |\n| --- | --- |\n| c |  |',
      '```\n1\n```\n\n```\nx\n```',
    ].join('\n\n');
    const good = scorePage(page, { markdown, text: page.text }, 1);
    expect(good).toMatchObject({
      codesVerbatim: 4,
      languagesKept: 1,
      tablesKept: 1,
      h1First: true,
      permalinkSigns: true,
    });
    expect(good.navLeaked).toEqual([]);
    const bad = scorePage(page, { markdown: '## Previous topic here\n\nimport json', text: 'Previous topic here' }, 1);
    expect(bad).toMatchObject({ codesVerbatim: 0, tablesKept: 0, h1First: false, navLeaked: ['Previous topic here'] });
    expect(bad.recall).toBeLessThan(0.2);
  });
});

describe('docs truth: blocks of links inside the content', () => {
  const fixtures = DOCS_SETS.find((set) => set.name === 'fixtures');
  if (!fixtures) throw new Error('no fixtures set');
  const file = join(fixtures.root, 'python-functions.html');
  const truth = pageTruth(
    fixtures,
    file,
    'http://docs.local/fixtures/python-functions.html',
    readFileSync(file, 'utf8'),
  );

  it("holds the main block's link texts, and an extraction that empties the table loses them", () => {
    if (!truth) throw new Error('no truth');
    expect(truth.links).toHaveLength(71);
    expect(truth.links.slice(0, 3)).toEqual(['abs()', 'aiter()', 'all()']);
    // The table's cells emptied, as the extractor left them: its names gone, what the page says of them kept.
    const emptied = truth.text
      .split('\n')
      .filter((line) => !truth.links.includes(line))
      .join('\n');
    const lost = scorePage(truth, { markdown: '', text: emptied }, 1);
    expect(lost.links).toBe(71);
    expect(lost.linksKept).toBeLessThan(10);
    expect(lost.lostLinks).toContain('breakpoint()');
    expect(scorePage(truth, { markdown: '', text: truth.text }, 1).linksKept).toBe(71);
  });

  it('the test pages are a set of the truth: their main block less what they mark out', () => {
    const pages = sampleSet(fixtures, 100);
    expect(pages.map((p) => p.file.split('/').at(-1)).sort()).toEqual([
      'blog-navigation.html',
      'docs-navigation.html',
      'product-tags.html',
      'python-functions.html',
    ]);
    const blog = pages.find((p) => p.file.endsWith('blog-navigation.html'));
    expect(blog?.text).toContain('What we packed');
    for (const out of ['Related posts', 'Hut-to-hut walks', 'Share on X', 'Tags:'])
      expect(blog?.text).not.toContain(out);
    expect(pages.find((p) => p.file.endsWith('product-tags.html'))?.links).toContain('made in Portugal');
  });

  it('pinned pages are always in the sample, first', () => {
    const pinned = sampleSet({ ...fixtures, pin: ['product-tags.html'] }, 2).map((p) => p.file.split('/').at(-1));
    expect(pinned).toEqual(['product-tags.html', 'blog-navigation.html']);
    expect(DOCS_SETS.find((set) => set.name === 'python')?.pin).toEqual(['library/functions.html']);
  });
});
