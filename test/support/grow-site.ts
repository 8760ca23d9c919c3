/**
 * The grow variant (/t/<ns>/grow-<n>[-d<ms>]/...): a site of n documentation pages and a few others, in sections,
 * that changes between two crawls, for capped recrawls and llms.txt. GET /t/<ns>/grow-<n>/__next moves the
 * namespace's site to its second version, where:
 *   (the index)   its paragraph is rewritten, and its links change as below;
 *   edited.html   a paragraph is rewritten;
 *   removed.html  answers 404 (still linked from the index: a crawl that reads the index finds it gone);
 *   dropped.html  answers 404 and is no longer linked from anywhere;
 *   added.html    appears, linked from the index.
 * The index links the top-level pages, blog/ and docs/; docs/ links docs/p1 .. p10, and docs/pK links docs/p(10K+1)
 * .. p(10K+10): a ten-ary tree, so a crawl capped by maxPages reaches the index's pages first and the deep docs last.
 * Pages at the site's top level (about, zebra, ...) sort between blog/ and docs/ and after them, in URL order.
 * Every page has text of its own (no two pages are duplicates of each other).
 */
type Reply = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };

const advanced = new Set<string>();

/** A made-up name of letters for a topic (no digits: a page's text is its own beyond the number in its URL). */
function codename(topic: string): string {
  let h = 2166136261;
  for (let i = 0; i < topic.length; i++) h = Math.imul(h ^ topic.charCodeAt(i), 16777619) >>> 0;
  return Array.from({ length: 7 }, (_, i) => String.fromCharCode(97 + (Math.floor(h / 26 ** i) % 26))).join('');
}

const prose = (topic: string) =>
  `<p>${topic} (known as ${codename(topic)}) is described here in plain words, long enough to read as the body of a page of its own.</p><p>The notes on ${topic} differ from every other page of the site.</p>`;

function page(title: string, body: string, delayMs: number): Reply {
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="description" content="About ${title}."></head><body><main><h1>${title}</h1>${body}</main></body></html>`,
    delayMs,
  };
}

const links = (hrefs: readonly string[]) => `<ul>${hrefs.map((h) => `<li><a href="${h}">${h}</a></li>`).join('')}</ul>`;

function docsPage(n: number, k: number, delayMs: number): Reply {
  const children = Array.from({ length: 10 }, (_, i) => 10 * k + 1 + i).filter((c) => c <= n);
  return page(`Doc ${k}`, `${prose(`Document ${k}`)}${links(children.map((c) => `p${c}.html`))}`, delayMs);
}

/** The page at `rest` of the namespace's grow site of n docs pages. */
export function growSite(ns: string, rest: string, n: number, delayMs: number): Reply {
  const second = advanced.has(ns);
  const notFound: Reply = { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found', delayMs };
  switch (rest) {
    case '__next':
      advanced.add(ns);
      return { status: 204 };
    case '': {
      const top = ['about.html', 'blog/', 'docs/', 'edited.html', 'removed.html', 'zebra.html'];
      if (second) top.push('added.html');
      else top.push('dropped.html');
      // Its text changes too (a list of links alone may not be the page's main content).
      return page('Grow', `${prose(second ? 'The index, second version,' : 'The index')}${links(top)}`, delayMs);
    }
    case 'about.html':
    case 'zebra.html':
      return page(rest === 'about.html' ? 'About' : 'Zebra', prose(rest), delayMs);
    case 'edited.html':
      return page('Edited', prose(second ? 'The second version' : 'The first version'), delayMs);
    case 'removed.html':
    case 'dropped.html':
      return second ? notFound : page(rest === 'removed.html' ? 'Removed' : 'Dropped', prose(rest), delayMs);
    case 'added.html':
      return second ? page('Added', prose('The added page'), delayMs) : notFound;
    case 'blog/':
      return page('Blog', `${prose('The blog')}${links(['first.html', 'second.html'])}`, delayMs);
    case 'blog/first.html':
    case 'blog/second.html':
      return page(rest === 'blog/first.html' ? 'First post' : 'Second post', prose(rest), delayMs);
    case 'docs/':
      return docsPage(n, 0, delayMs);
  }
  const doc = /^docs\/p(\d+)\.html$/.exec(rest);
  const k = Number(doc?.[1] ?? 0);
  return k >= 1 && k <= n ? docsPage(n, k, delayMs) : notFound;
}
