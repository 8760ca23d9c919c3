/**
 * The watch variant (/t/<ns>/watch/...): a small site that changes between two crawls, for change tracking.
 * GET /t/<ns>/watch/__next moves the namespace's site to its second version, where:
 *   article.html  a paragraph of its text is rewritten;
 *   product.html  only the price (a declared field) changes;
 *   gone.html     is removed (404);
 *   noisy.html    the same article, but its markup changes on every request: a clock in the footer, a CSRF token in
 *                 a hidden input and a meta tag, a rotating ad in an aside;
 *   stamped.html  the same article with a live reading and its time in a paragraph of it, which change on every request
 *                 (noise only the crawl's `ignore` selectors can tell);
 *   new.html      appears, linked from the index.
 * refs.html (not linked) has markup inside links and a footnote link, for the dashboard's markdown.
 */
type Reply = { status: number; headers?: Record<string, string>; body?: string };

const advanced = new Set<string>();
let served = 0;

const PROSE = [
  'Rivers carry the weight of mountains to the sea, grain by grain, over thousands of years of patient work.',
  'Where the current slows, the sand settles, and a delta grows into the water like the fingers of an open hand.',
  'Farmers have lived on those soft new lands for as long as there have been farms, trusting the floods to return.',
];

function page(title: string, main: string, extra = ''): Reply {
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${extra}</head><body><nav><a href="./">Home</a> · <a href="article.html">Article</a></nav><main><article><h1>${title}</h1>${main}</article></main></body></html>`,
  };
}

const paragraphs = (lines: readonly string[]) => lines.map((line) => `<p>${line}</p>`).join('');

function noisy(): Reply {
  served++;
  const token = `${Date.now().toString(36)}${served}${Math.random().toString(36).slice(2)}`;
  const reply = page(
    'Deltas',
    `${paragraphs(PROSE)}<form method="post"><input type="hidden" name="csrf" value="${token}"><button>Subscribe</button></form>`,
    `<meta name="csrf-token" content="${token}">`,
  );
  const ad = ['Buy boots', 'Cheap flights', 'New phones'][served % 3];
  reply.body = reply.body?.replace(
    '</main>',
    `</main><aside class="ad">${ad} today only</aside><footer>Page generated at ${new Date().toISOString()} (#${served})</footer>`,
  );
  return reply;
}

export function watchSite(ns: string, rest: string): Reply {
  const second = advanced.has(ns);
  switch (rest) {
    case '__next':
      advanced.add(ns);
      return { status: 204 };
    case '':
    case 'index.html': {
      const pages = ['article.html', 'product.html', 'gone.html', 'noisy.html', 'stamped.html'];
      if (second) pages.push('new.html');
      return page('Watch', `<ul>${pages.map((p) => `<li><a href="${p}">${p}</a></li>`).join('')}</ul>`);
    }
    case 'article.html':
      return page(
        'Rivers',
        paragraphs(
          second
            ? [PROSE[0] ?? '', 'Dams now hold most of that sand back, and many deltas are shrinking.']
            : PROSE.slice(0, 2),
        ),
      );
    case 'product.html':
      return page(
        'Boots',
        `<p>Walking boots, waxed leather, made to last.</p><p class="price">${second ? '€149' : '€129'}</p>`,
      );
    case 'gone.html':
      return second ? { status: 404, body: 'not found' } : page('Soon gone', paragraphs(PROSE.slice(1)));
    case 'noisy.html':
      return noisy();
    case 'stamped.html':
      served++;
      return page(
        'Tides',
        `${paragraphs(PROSE.slice(0, 2))}<p class="live">The gauge at the harbour read ${(1 + (served % 7) / 10).toFixed(2)} metres when this page was made, at ${new Date().toISOString()}.</p>${paragraphs(PROSE.slice(2))}`,
      );
    case 'refs.html':
      // Not linked: markup inside links and footnote links, for the dashboard's markdown (test/system/dashboard.test.ts).
      return page(
        'References',
        '<p>JSON is defined in <a href="https://www.rfc-editor.org/rfc/rfc7159"><strong>RFC 7159</strong></a>; its media type is <a href="https://www.iana.org/assignments/media-types/application/json"><code>json</code></a>.<sup><a href="#fn1">[1]</a></sup></p><ol><li id="fn1">Also ECMA-404.</li></ol>',
      );
    case 'new.html':
      return second ? page('Estuaries', paragraphs(PROSE.slice(0, 1))) : { status: 404, body: 'not yet' };
    default:
      return { status: 404, body: 'no such page' };
  }
}
