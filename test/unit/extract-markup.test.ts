import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/domain/extract';
import type { ExtractSpec } from '../../src/domain/extract/spec-schema';

const URL_ = 'https://docs.example.com/library/pdb.html';
const spec = (overrides: Partial<ExtractSpec> = {}): ExtractSpec => ({
  formats: ['markdown', 'text', 'metadata'],
  mainContent: false,
  include: [],
  exclude: [],
  fields: {},
  ...overrides,
});
const extract = (html: string, s: Partial<ExtractSpec> = {}) =>
  extractPage(new TextEncoder().encode(html), 'text/html; charset=utf-8', URL_, spec(s));

describe('markdown of documentation markup', () => {
  it('drops heading permalinks: Sphinx and MkDocs ¶, rustdoc §, Docusaurus hash links', async () => {
    const { outputs } = await extract(`<body>
<h1>pdb — The Python Debugger<a class="headerlink" href="#module-pdb" title="Permalink to this heading">¶</a></h1>
<h2 id="a"><a href="#a" class="anchor">§</a>Usage</h2>
<h3>Options<a href="#options" class="hash-link" aria-label="Direct link to Options">\u200b</a></h3>
<dl><dt id="pdb.run">pdb.run(statement)<a class="headerlink" href="#pdb.run">¶</a></dt><dd>Runs it.</dd></dl>
<h2><a class="header" href="#ownership">Ownership</a></h2></body>`);
    expect(outputs.markdown).toBe(
      '# pdb — The Python Debugger\n\n## Usage\n\n### Options\n\npdb.run(statement)\n\nRuns it.\n\n## [Ownership](https://docs.example.com/library/pdb.html#ownership)',
    );
    expect(outputs.text).not.toMatch(/[¶§]/);
  });

  it('escapes a numbered line as "1\\." and leaves numbered link texts and headings alone', async () => {
    const { outputs } = await extract(`<body>
<ul><li><a href="appetite.html">1. Whetting Your Appetite</a></li><li><a href="interp.html">2. Using the Interpreter</a></li></ul>
<p>1. Not a list, a sentence.</p><h2>3. Informal Introduction</h2><p><strong>4. Bold</strong> start</p></body>`);
    expect(outputs.markdown).toBe(
      [
        '- [1. Whetting Your Appetite](https://docs.example.com/library/appetite.html)',
        '- [2. Using the Interpreter](https://docs.example.com/library/interp.html)',
        '',
        '1\\. Not a list, a sentence.',
        '',
        '## 3. Informal Introduction',
        '',
        '**4. Bold** start',
      ].join('\n'),
    );
  });
});

describe('fields of code', () => {
  const PAGE = `<body><p>Intro   text</p>
<div class="highlight-python3"><pre><span class="k">def</span> f(x):
    <span class="k">return</span> x  *  2
</pre></div>
<pre><span class="linenos">1</span>print(1)<br><span class="linenos">2</span>print(2)</pre>
<div class="example"><p>Run   this:</p><pre>a
  b</pre></div></body>`;

  it('keeps the line breaks of pre as text, verbatim code with type code, collapsed text elsewhere', async () => {
    const { record } = await extract(PAGE, {
      fields: {
        blocks: { selector: 'pre', list: true },
        code: { selector: 'pre', list: true, type: 'code' },
        example: { selector: '.example' },
        intro: { selector: 'p' },
        inline: { selector: 'p', type: 'code' },
      },
    });
    expect(record.fields).toEqual({
      blocks: ['def f(x):\n    return x  *  2', 'print(1)\nprint(2)', 'a\n  b'],
      code: ['def f(x):\n    return x  *  2', 'print(1)\nprint(2)', 'a\n  b'],
      example: 'Run this:\n\na\n  b',
      intro: 'Intro text',
      inline: 'Intro   text',
    });
  });
});

describe('metadata titles', () => {
  it('title is the <title> as written; headline is the content title the page declares or the cleaned <title>', async () => {
    const declared = await extract(
      '<head><title>Big story | News Site</title><meta property="og:title" content="Big story, told"></head><body><p>x</p></body>',
    );
    expect(declared.record.metadata).toMatchObject({ title: 'Big story | News Site', headline: 'Big story, told' });
    const cleaned = await extract(
      '<head><title>  A much longer story title | News Site </title></head><body><h1>Other</h1></body>',
    );
    expect(cleaned.record.metadata).toMatchObject({
      title: 'A much longer story title | News Site',
      headline: 'A much longer story title',
    });
    const untitled = await extract('<head><meta property="og:title" content="Only OG"></head><body><p>x</p></body>');
    expect(untitled.record.metadata).toMatchObject({ title: 'Only OG', headline: 'Only OG' });
  });
});

describe('pages that leave <html> implied', () => {
  it('reads a page that starts at <head> or <body> whole', async () => {
    const headed = await extract(
      '<head><title>T</title><meta name="description" content="D"></head><body><p>Body text</p></body>',
    );
    expect(headed.outputs.text).toBe('Body text');
    expect(headed.record.metadata).toMatchObject({ title: 'T', description: 'D' });
    const bodied = await extract('<body>\n<h1>Heading</h1><p>Body text</p></body>');
    expect(bodied.outputs.markdown).toBe('# Heading\n\nBody text');
  });
});

describe('code blocks of documentation generators', () => {
  it('fences Doxygen fragments line by line and takes a bare language class (rustdoc)', async () => {
    const { outputs } = await extract(`<body>
<div class="fragment"><div class="line"><a name="l00001"></a><span class="lineno">    1</span>#define X 1</div>
<div class="line"><span class="lineno">    2</span>int y;</div></div>
<pre class="rust rust-example-rendered"><code>let x = 5;</code></pre>
<div class="fragment"><p>A reveal.js fragment is prose.</p></div></body>`);
    expect(outputs.markdown).toBe(
      '```\n#define X 1\nint y;\n```\n\n```rust\nlet x = 5;\n```\n\nA reveal.js fragment is prose.',
    );
  });
});

describe('tables that lay out blocks', () => {
  it('reads a header-less table whose cells hold lists or paragraphs as blocks; data tables stay GFM', async () => {
    const { outputs } = await extract(`<body>
<table class="contentstable"><tr><td><p><a href="t.html">Tutorial</a></p><p>start here</p></td><td><ul><li>A</li><li>B</li></ul></td></tr></table>
<table><tr><th>Option</th><th>Default</th></tr><tr><td><ul><li>x</li></ul></td><td>1</td></tr></table></body>`);
    expect(outputs.markdown).toBe(
      '[Tutorial](https://docs.example.com/library/t.html)\n\nstart here\n\n- A\n- B\n\n| Option | Default |\n| --- | --- |\n| - x | 1 |',
    );
  });
});
