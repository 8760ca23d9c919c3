/**
 * A site of both kinds for rendering tests, under /t/<ns>/spa/:
 *   index.html        server-rendered: text, links to ssr-1, app-1, mixed.html (and a small inline script)
 *   ssr-<i>.html      server-rendered pages with scripts (must not be rendered under auto); ssr-1 links ssr-2
 *   mixed.html        mostly script (inline state, a bundle) but its text is in the HTML (must not be rendered)
 *   app-<i>.html      an empty <div id="root"> filled by app.js after a delay: its text (token app-<i>) and links to
 *                     app-<i+1> (up to 3) and deep-<i>.html, which only the script makes
 *   deep-<i>.html     the same kind of page, reachable only through script-made links
 *   trap.html         an app whose script calls private addresses (the trap host, 169.254.169.254: fetch, XHR, an
 *                     image, a popup, a WebSocket) before it renders
 *   hang.html         an app whose script never yields (a render must time out, the page stored unrendered)
 *   slow.html         an app that renders after 1.5 s
 *   busy.html         an app whose network is never quiet (it polls ping every 100 ms)
 *   dialogs.html      an app that opens alert, confirm and prompt dialogs before its scripts go on
 *   forum.html        a forum thread as Discourse serves it to browsers: the posts inside <noscript>, an empty app root
 *   app.js            the app: reads the page's name from <div id="root" data-page>, renders after data-delay ms
 * GET /__trap/<ns> lists the requests the trap host received (none may arrive).
 */
type Reply = { status: number; headers?: Record<string, string>; body?: string };

/** An HTML page, with a header of the site's own (a WARC's response record must carry what the server sent). */
const html = (body: string): Reply => ({
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8', 'x-served-by': 'spa-site' },
  body,
});
const words = (token: string) =>
  `<p>The page ${token} says enough in plain words to be read as its own main content by the crawler and scored.</p>`;

/** A page whose HTML holds its text, with the scripts a server-rendered site still loads. */
const ssrPage = (title: string, token: string, links: string[]) =>
  html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<script>window.analytics = { page: ${JSON.stringify(token)} };</script><script src="app.js" defer></script></head>
<body><main><h1>${title}</h1>${words(token)}${words(`${token} again`)}<ul>${links
      .map((href) => `<li><a href="${href}">${href}</a></li>`)
      .join('')}</ul></main></body></html>`,
  );

/** A framework's shell: an empty root the bundle fills. */
const appShell = (page: string, delayMs: number, extra = '') =>
  html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>App</title>${extra}</head>
<body><noscript>You need to enable JavaScript to run this app.</noscript>
<div id="root" data-page="${page}" data-delay="${delayMs}"></div><script src="app.js"></script></body></html>`,
  );

/** The bundle: renders the page named by its root after its delay, links included. */
const APP_JS = `(() => {
  const root = document.getElementById('root');
  if (!root || !root.dataset.page) return;
  const page = root.dataset.page;
  const n = Number(page.split('-')[1] || 0);
  const links = page.startsWith('app-')
    ? [n < 3 ? 'app-' + (n + 1) + '.html' : null, 'deep-' + n + '.html'].filter(Boolean)
    : [];
  setTimeout(() => {
    root.innerHTML = '<article><h1>Rendered ' + page + '</h1><p>The page ' + page + ' was built by a script in the ' +
      'browser, with enough words to be the main content of the page for extraction to find.</p><p>Token: ' + page +
      '-token.</p><ul>' + links.map((l) => '<li><a href="' + l + '">' + l + '</a></li>').join('') + '</ul></article>';
  }, Number(root.dataset.delay || 0));
})();`;

/** What the trap page's script tries before it renders. */
const trapScript = (trapHost: string) =>
  `<script>
for (const url of ['http://${trapHost}/trap-fetch', 'http://169.254.169.254/latest/meta-data/']) fetch(url).catch(() => {});
new Image().src = 'http://${trapHost}/trap-image';
const x = new XMLHttpRequest(); x.open('GET', 'http://${trapHost}/trap-xhr'); x.send();
try { window.open('http://${trapHost}/trap-popup'); } catch {}
try { new WebSocket('ws://${trapHost}/trap-socket'); } catch {}
</script>`;

/** Discourse's browser view: the thread is written inside <noscript>; the app root the bundle fills is empty. */
const FORUM = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cache after deploy - Help - Forum</title>
<meta name="generator" content="Discourse 3.4.0"><script src="app.js" defer></script></head>
<body><noscript data-path="/t/cache-after-deploy/42"><div id="main-outlet" class="wrap" role="main">
<div id="topic-title"><h1><a href="/t/cache-after-deploy/42">Cache after deploy</a></h1></div>
<div itemscope itemtype="http://schema.org/DiscussionForumPosting">
<div id="post_1" class="topic-body crawler-post"><div class="crawler-post-meta"><span class="creator"><a href="/u/ana">ana</a></span></div>
<div class="post" itemprop="text">${words('forum-first-post')}${words('forum-first-post again')}</div></div>
<div id="post_2" itemprop="comment" class="topic-body crawler-post"><div class="crawler-post-meta"><span class="creator"><a href="/u/ben">ben</a></span></div>
<div class="post" itemprop="text">${words('forum-reply')}</div></div></div></div>
<footer class="container wrap"><nav class="crawler-nav"><ul><li><a href="/">Home</a></li><li><a href="/tos">Terms of Service</a></li></ul></nav>
<p class="powered-by-link">Powered by Discourse, best viewed with JavaScript enabled</p></footer></noscript>
<section id="main"></section><script src="app.js"></script></body></html>`;

const trapped = new Map<string, string[]>();

/** A request that reached the trap host (recorded by the site's handler for that host). */
export function trapHit(path: string): void {
  const ns = /^\/t\/([A-Za-z0-9_-]+)\//.exec(path)?.[1] ?? '_';
  trapped.set(ns, [...(trapped.get(ns) ?? []), path]);
}

export const trapHits = (ns: string): string[] => trapped.get(ns) ?? [];

export function spaSite(ns: string, rest: string, trapHost: string): Reply {
  if (rest === 'app.js') return { status: 200, headers: { 'content-type': 'text/javascript' }, body: APP_JS };
  if (rest === '' || rest === 'index.html') return ssrPage('Home', 'home', ['ssr-1.html', 'app-1.html', 'mixed.html']);
  const page = /^(ssr|app|deep)-(\d+)\.html$/.exec(rest);
  if (page?.[1] === 'ssr')
    return ssrPage(`Server page ${page[2]}`, `ssr-${page[2]}`, page[2] === '1' ? ['ssr-2.html'] : []);
  if (page) return appShell(`${page[1]}-${page[2]}`, 150);
  if (rest === 'mixed.html')
    return html(
      `<!doctype html><html><head><title>Mixed</title><script>self.__next_f = [[1, ${JSON.stringify('x'.repeat(5000))}]];</script>
<script src="app.js" async></script></head><body><div id="__next"><main><h1>Mixed</h1>${words('mixed')}${words('mixed more')}${words('mixed again')}${words('mixed at last')}</main></div></body></html>`,
    );
  if (rest === 'trap.html') return appShell('trap-1', 100, trapScript(trapHost));
  if (rest === 'forum.html') return html(FORUM);
  if (rest === 'slow.html') return appShell('slow-1', 1500);
  // Never quiet: it polls its host every 100 ms, forever, once it has rendered.
  if (rest === 'busy.html')
    return appShell('busy-1', 100, `<script>setInterval(() => fetch('ping').catch(() => {}), 100);</script>`);
  if (rest === 'ping') return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'pong' };
  // Asks the user things before it renders.
  if (rest === 'dialogs.html')
    return appShell('dialogs-1', 50, `<script>alert('hello'); confirm('sure?'); prompt('name?');</script>`);
  if (rest === 'hang.html')
    return html(
      `<!doctype html><html><head><title>Hang</title></head><body><div id="root"></div>
<script>setTimeout(() => { for (;;) {} }, 50);</script></body></html>`,
    );
  return { status: 404, headers: { 'content-type': 'text/plain' }, body: `no ${ns} page ${rest}` };
}
