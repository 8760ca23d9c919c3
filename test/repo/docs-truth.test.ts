/** The docs bench's truth and scoring (scripts/lib/docs-page.ts, docs-score.ts) on a small Sphinx-like page. */
import { describe, expect, it } from 'vitest';
import { pageTruth } from '../../scripts/lib/docs-page.ts';
import { scorePage } from '../../scripts/lib/docs-score.ts';
import type { DocsSet } from '../../scripts/lib/docs-sets.ts';

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
