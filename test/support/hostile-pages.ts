/**
 * Pages a hostile (or broken) site might serve, each built on demand: the set extraction must get through with a
 * record, in bounded work (test/unit/hostile.test.ts, test/integration/extract.test.ts through the docs site, and
 * `npm run measure:hostile`). Pure: no imports, so Node scripts, the test site and workerd tests share it.
 */
export interface HostilePage {
  /** File name under the docs site (`/t/<ns>/docs/hostile/<name>`). */
  name: string;
  what: string;
  body: () => Uint8Array;
}

const utf8 = (html: string) => new TextEncoder().encode(html);
const page = (body: string, head = '') =>
  utf8(`<!doctype html><html lang="en"><head><title>Hostile</title>${head}</head><body>${body}</body></html>`);
const repeat = (count: number, make: (i: number) => string) =>
  Array.from({ length: count }, (_, i) => make(i)).join('');
const nested = (count: number, open: string, close: string, inner: string) =>
  `${open.repeat(count)}${inner}${close.repeat(count)}`;

function invalidUtf8(): Uint8Array {
  const bytes = [...utf8('<html><body><p>ok ')];
  for (let i = 0; i < 100_000; i++) bytes.push(0xff, 0xfe, 0xc3, 0x20);
  return new Uint8Array([...bytes, ...utf8(' end</p></body></html>')]);
}

export const HOSTILE_PAGES: readonly HostilePage[] = [
  {
    name: 'deep-divs.html',
    what: '100,000 nested <div>s',
    body: () => page(nested(100_000, '<div>', '</div>', 'deep text')),
  },
  { name: 'big-8mb.html', what: 'an 8 MB page', body: () => page(repeat(800_000, () => '<p>word</p>')) },
  {
    name: 'huge-attribute.html',
    what: 'a 2 MB attribute',
    body: () => page(`<p data-x="${'a'.repeat(2_000_000)}" class="${'c '.repeat(100_000)}">attribute text</p>`),
  },
  { name: 'invalid-utf8.html', what: 'invalid UTF-8 (400 KB of bad bytes)', body: invalidUtf8 },
  {
    name: 'links-100k.html',
    what: '100,000 links',
    body: () => page(repeat(100_000, (i) => `<a href="x/${i}.html">${i}</a>`)),
  },
  {
    name: 'table-2000x50.html',
    what: 'a 2000x50 table',
    body: () => page(`<table>${repeat(2000, (r) => `<tr>${repeat(50, (c) => `<td>${r}.${c}</td>`)}</tr>`)}</table>`),
  },
  {
    name: 'script-3mb.html',
    what: '3 MB of inline script',
    body: () => page(`<p>Script page text.</p><script>var s = "${'x'.repeat(3_000_000)}";</script>`),
  },
  {
    name: 'unclosed-2000.html',
    what: '2000 unclosed levels',
    body: () => utf8(`<html><body>${'<div><span>unclosed '.repeat(2000)}`),
  },
  {
    name: 'unclosed-inline.html',
    what: '20,000 unclosed <p><b><i><span>',
    body: () => utf8(`<html><body>${'<p><b><i><span>unclosed '.repeat(20_000)}`),
  },
  {
    name: 'json-ld-deep.html',
    what: 'JSON-LD nested 50,000 deep',
    body: () =>
      page(
        '<p>json-ld text</p>',
        `<script type="application/ld+json">${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}</script><script type="application/ld+json">${'['.repeat(50_000)}${']'.repeat(50_000)}</script>`,
      ),
  },
  {
    name: 'inline-100k.html',
    what: '100,000 nested inline tags <b><i>',
    body: () => page(nested(50_000, '<b><i>', '</i></b>', 'inline text')),
  },
  {
    name: 'lists-10k.html',
    what: '10,000 nested lists',
    body: () => page(nested(10_000, '<ul><li>item ', '</li></ul>', 'list text')),
  },
  {
    name: 'tables-10k.html',
    what: '10,000 nested tables',
    body: () => page(nested(10_000, '<table><tr><td>cell ', '</td></tr></table>', 'table text')),
  },
  {
    name: 'siblings-200k.html',
    what: '200,000 sibling elements',
    body: () => page(repeat(200_000, () => '<p>x</p>')),
  },
  {
    name: 'word-3mb.html',
    what: 'a 3.5 MB text node without spaces',
    body: () => page(`<p>${'w'.repeat(3_500_000)}</p>`),
  },
  {
    name: 'word-5mb.html',
    what: 'a 5 MB text node without spaces',
    body: () => page(`<p>${'w'.repeat(5_000_000)}</p>`),
  },
  {
    name: 'entities-1mb.html',
    what: '1 MB of entities',
    body: () => page(`<p>${'&amp;&lt;&#x41;&eacute;'.repeat(50_000)}</p>`),
  },
  {
    name: 'anchors-50k.html',
    what: '50,000 nested <a>',
    body: () => page(nested(50_000, '<a href="/a">', '</a>', 'anchor text')),
  },
  {
    name: 'huge-head.html',
    what: 'a 1 MB <title>, a 1 MB <meta> and 40,000 more',
    body: () =>
      page(
        '<p>head text</p>',
        `<title>${'title '.repeat(200_000)}</title><meta name="description" content="${'d'.repeat(1_000_000)}">${repeat(40_000, (i) => `<meta property="og:p${i}" content="v">`)}`,
      ),
  },
  {
    name: 'cells-deep.html',
    what: '2,000 nested <pre><table> pairs',
    body: () => page(nested(2000, '<table><tr><td><pre>', '</pre></td></tr></table>', 'code')),
  },
  {
    name: 'foreign-deep.html',
    what: '100,000 self-closed <foreignObject/> in an <svg> (they open, as in HTML)',
    body: () => page(`<svg>${'<foreignObject/>'.repeat(100_000)}</svg><p>svg text</p>`),
  },
  {
    name: 'short-comment.html',
    what: 'a short comment <!--> before 100,000 nested <div>s',
    body: () => page(`<!-->${nested(100_000, '<div>', '</div>', 'comment text')}<!-- -->`),
  },
  {
    name: 'attributes-300k.html',
    what: 'one element with 300,000 attributes',
    body: () => page(`<p ${repeat(300_000, (i) => `a${i} `)}>attributes text</p>`),
  },
];
