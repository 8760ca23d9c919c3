import { describe, expect, it } from 'vitest';
import { extractPage } from '../../src/domain/extract';
import { boundMarkup } from '../../src/domain/extract/bound';
import { parseBounded } from '../../src/domain/extract/dom';
import { toMarkdown } from '../../src/domain/extract/markdown';
import { PAGE_LIMITS } from '../../src/domain/extract/spec';
import { HOSTILE_PAGES } from '../support/hostile-pages';

const URL_ = 'https://hostile.example/page.html';
const SPEC = {
  formats: ['markdown', 'text', 'html', 'metadata', 'jsonLd', 'links', 'images'] as (
    | 'markdown'
    | 'text'
    | 'html'
    | 'metadata'
    | 'jsonLd'
    | 'links'
    | 'images'
  )[],
  mainContent: true,
  include: [],
  exclude: [],
  fields: { heading: { selector: 'h1' }, cells: { selector: 'td', list: true } },
};

const FLATTENED = /^page: \d+ elements nested deeper than 512 were flattened into their ancestors \(their text kept\)$/;
const CUT_ELEMENTS = /^page: parsed up to 20000 elements, \d+ of \d+ characters; the rest is not extracted$/;
const NOT_DETECTED = /^content: (elements nest deeper than 256|more than 10000 elements); main content not detected/;
const WORK = /^(text|markdown): past 8388608 characters of work, the rest of the content is read as text$/;
const NODES =
  /^page: parsed up to 80000 nodes \(tags, attributes, comments and character references\), \d+ of \d+ characters; the rest is not extracted$/;
/** The extractor says when what it found is too short to trust (these pages hold a line of text). */
const SHORT = /^content: the main content found has \d+ characters; the whole body is used$/;
const NOT_PARSED = /^page of \d+ bytes is larger than 4194304: not parsed, nothing extracted$/;

/** What each hostile page's record must say (every warning matches one of these, each of these matches one), and a text it keeps. */
const EXPECTED: Record<string, { warnings: RegExp[]; text: string; whole: boolean }> = {
  'deep-divs.html': { warnings: [FLATTENED, NOT_DETECTED], text: 'deep text', whole: true },
  'big-8mb.html': { warnings: [NOT_PARSED], text: '', whole: false },
  'huge-attribute.html': { warnings: [SHORT], text: 'attribute text', whole: true },
  'invalid-utf8.html': { warnings: [], text: 'ok \ufffd\ufffd\ufffd \ufffd', whole: true },
  'links-100k.html': { warnings: [CUT_ELEMENTS, NOT_DETECTED], text: '0123', whole: false },
  'table-2000x50.html': { warnings: [CUT_ELEMENTS, NOT_DETECTED], text: '0.0\t0.1', whole: false },
  'script-3mb.html': { warnings: [SHORT], text: 'Script page text.', whole: true },
  'unclosed-2000.html': { warnings: [FLATTENED, NOT_DETECTED], text: 'unclosed', whole: true },
  'unclosed-inline.html': { warnings: [FLATTENED, NOT_DETECTED, WORK], text: 'unclosed', whole: true },
  'json-ld-deep.html': {
    warnings: [/^jsonLd: block [12] skipped, nested deeper than 10000 levels$/, SHORT],
    text: 'json-ld text',
    whole: true,
  },
  'inline-100k.html': { warnings: [FLATTENED, NOT_DETECTED], text: 'inline text', whole: true },
  'lists-10k.html': { warnings: [FLATTENED, NOT_DETECTED], text: '- item\n  - item', whole: true },
  'tables-10k.html': { warnings: [FLATTENED, CUT_ELEMENTS, NOT_DETECTED, WORK], text: 'cell', whole: false },
  'siblings-200k.html': { warnings: [CUT_ELEMENTS, NOT_DETECTED], text: 'x\n\nx', whole: false },
  'word-3mb.html': { warnings: [/^(text|markdown|html): cut at 2097152 characters$/], text: 'www', whole: true },
  'word-5mb.html': { warnings: [NOT_PARSED], text: '', whole: false },
  'entities-1mb.html': {
    warnings: [NODES],
    text: '&<Aé&<Aé',
    whole: false,
  },
  'anchors-50k.html': { warnings: [FLATTENED, NOT_DETECTED], text: 'anchor text', whole: true },
  'huge-head.html': {
    warnings: [CUT_ELEMENTS, NOT_DETECTED, /^html: cut at 2097152 characters$/],
    text: 'Hostile',
    whole: false,
  },
  'cells-deep.html': { warnings: [FLATTENED, NOT_DETECTED], text: 'code', whole: true },
  'foreign-deep.html': { warnings: [FLATTENED, NOT_DETECTED], text: 'svg text', whole: true },
  'short-comment.html': { warnings: [FLATTENED, NOT_DETECTED], text: 'comment text', whole: true },
  'attributes-300k.html': { warnings: [NODES, SHORT], text: '', whole: false },
};

describe('hostile pages: each ends with a record that says what was cut', () => {
  it('knows every page of the set', () => {
    expect(HOSTILE_PAGES.map((p) => p.name).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const page of HOSTILE_PAGES) {
    it(`${page.name}: ${page.what}`, async () => {
      const expected = EXPECTED[page.name];
      if (!expected) throw new Error(`no expectation for ${page.name}`);
      const { record, outputs, links, summary } = await extractPage(
        page.body(),
        'text/html; charset=utf-8',
        URL_,
        SPEC,
      );
      const { warnings } = record;
      for (const warning of warnings)
        expect(
          expected.warnings.some((w) => w.test(warning)),
          `unexpected: ${warning}`,
        ).toBe(true);
      for (const w of expected.warnings)
        expect(
          warnings.some((warning) => w.test(warning)),
          `missing: ${w} in ${JSON.stringify(warnings)}`,
        ).toBe(true);
      expect(record.contentHash).toMatch(/^[0-9a-f]{64}$/);
      expect((outputs.text ?? '').startsWith(expected.text), (outputs.text ?? '').slice(0, 80)).toBe(true);
      for (const output of [outputs.markdown, outputs.text, outputs.html])
        expect(output?.length ?? 0).toBeLessThanOrEqual(PAGE_LIMITS.outputChars);
      expect(links === null).toBe(!expected.whole);
      expect(summary.title?.length ?? 0).toBeLessThanOrEqual(PAGE_LIMITS.metaChars);
      expect(summary.description?.length ?? 0).toBeLessThanOrEqual(PAGE_LIMITS.metaChars);
    });
  }
});

describe('hostile pages: the work is counted, and bounded', () => {
  const bounds = { depth: PAGE_LIMITS.parseDepth, elements: PAGE_LIMITS.parseElements, nodes: PAGE_LIMITS.parseNodes };

  it('the pre-pass keeps at most the bounds for every page, and its depth for nested ones', () => {
    for (const page of HOSTILE_PAGES) {
      const html = new TextDecoder().decode(page.body());
      const bounded = boundMarkup(html, bounds);
      expect(bounded.elements, page.name).toBeLessThanOrEqual(PAGE_LIMITS.parseElements);
      expect(bounded.nodes, page.name).toBeLessThanOrEqual(PAGE_LIMITS.parseNodes);
      // Parsed again, what is kept nests no deeper than the bound (plus the wrapper parseDocument may add).
      const again = boundMarkup(bounded.html, { ...bounds, depth: PAGE_LIMITS.parseDepth + 3 });
      expect(again.flattened, page.name).toBe(0);
    }
  });

  it('leaves markup within the bounds untouched, and mirrors the parser on implied closes, void and raw-text elements', () => {
    const html =
      '<!doctype html><html><head><title>a<b></title><script>if (a<b) x("<div>")</script></head><body>' +
      '<ul><li>one<li>two</ul><p>a<p>b<br><img src=x><svg><path d="M0"/><path/></svg><table><tr><td>1<td>2</table></body></html>';
    const bounded = boundMarkup(html, { depth: 5, elements: 100, nodes: 100 });
    expect(bounded).toMatchObject({ html, flattened: 0, cutAt: null });
    expect(bounded.elements).toBe(19);
  });

  it('flattens open tags past the depth with their close tags, and cuts at the element bound', () => {
    const deep = `<div>${'<div>'.repeat(10)}x${'</div>'.repeat(10)}</div><p>after</p>`;
    expect(boundMarkup(deep, { depth: 3, elements: 100, nodes: 100 })).toMatchObject({
      html: '<div><div><div>x</div></div></div><p>after</p>',
      flattened: 8,
    });
    const many = '<p>a</p>'.repeat(10);
    expect(boundMarkup(many, { depth: 10, elements: 4, nodes: 100 })).toMatchObject({
      html: '<p>a</p>'.repeat(4),
      cutAt: 32,
      cutBy: 'elements',
    });
  });

  it('writes character references in text as their characters, except those that read as markup, and never in attributes or raw text', () => {
    const html =
      '<p title="&quot;q&quot;">a&quot;b&nbsp;c&#233;&#x41;&lt;d&amp;e&#60;f&bogus;g&copy h</p><script>x="&quot;"</script>';
    const bounded = boundMarkup(html, { depth: 10, elements: 100, nodes: 100 });
    expect(bounded.html).toBe(
      '<p title="&quot;q&quot;">a"b\u00a0céA&lt;d&amp;e&#60;f&bogus;g&copy h</p><script>x="&quot;"</script>',
    );
    // &lt;, &amp;, &#60;, an unknown name and one without its `;` stay references (text nodes, counted).
    expect(bounded.entities).toBe(5);
  });

  it('an article after half a megabyte of JSON in a hidden element, its quotes written &quot;, is kept whole', async () => {
    const json = JSON.stringify({ items: Array.from({ length: 12_000 }, (_, i) => ({ id: i, tags: ['a', 'b'] })) });
    const blob = `<code style="display: none" id="datalet">${json.replaceAll('"', '&quot;')}</code>`;
    const prose = Array.from(
      { length: 8 },
      (_, i) => `<p>Paragraph ${i} of the story, long enough to be read as prose by anyone.</p>`,
    );
    const html = `<html><head><title>After the blob</title></head><body>${blob}<article><h1>After the blob</h1>${prose.join('')}</article></body></html>`;
    const result = await extractPage(new TextEncoder().encode(html), 'text/html', URL_, SPEC);
    expect(result.record.warnings).toEqual([]);
    expect(result.outputs.text).toContain('Paragraph 7 of the story');
    expect(result.outputs.text).not.toContain('tags');
  });

  it('markdown reads what is past its work budget as text, and says so', () => {
    const warnings: string[] = [];
    const nested = `<body>${'<blockquote><b><i>'.repeat(150)}${'long words '.repeat(20_000)}</body>`;
    const { document } = parseBounded(nested, warnings);
    const markdown = toMarkdown(document.body ?? document.documentElement, URL_, 'markdown', warnings);
    expect(markdown).toContain('long words');
    expect(warnings).toEqual(['markdown: past 8388608 characters of work, the rest of the content is read as text']);
  });
});
