/**
 * A site behind a login, for crawls with credentials (test/integration/credentials.test.ts). Runs in Node, served by
 * site.ts under /t/<ns>/private/..., on any of the test hosts. Each namespace has its own secrets:
 *   cookie/...   needs the cookie session=sess-<ns> (else a 302 to login.html, as a session that expired)
 *   basic/...    needs HTTP basic user-<ns> / pass-<ns> (else 401 with WWW-Authenticate)
 *   header/...   needs X-Api-Key: key-<ns> (else 403)
 *   index.html   open: links to one page of each, to `?other=` (another host's address: a link to it, and
 *                go.html, a redirect there) and to the login page.
 *   login.html   a form (#user, #pass, #go) POSTed to login.html: user-<ns> / pass-<ns> set the session cookie and
 *                redirect to cookie/a.html; anything else shows the form again.
 *   cookie/app.html  a page built by its script from cookie/data.json (which needs the cookie too).
 *   mixed.html?other=<host>  an open page whose script fetches elsewhere.html of its own host and of `other`.
 *   rotating/p<n>.html?other=<host>  p1 .. p10, each linking to the next and to rotating-away.html on `other`. They
 *                need the cookie rsess=rot-<ns>-<k>, k the current session: every third page served renews it (a
 *                Set-Cookie of k + 1, Path=/t/<ns>/private/) and the old one is refused from then on (a 302 to the login).
 *   rotating-away.html  sets rsess=planted-<ns> (on the host it is served from): a cookie no crawl may keep for another.
 * Every request's credentials are logged per namespace (GET /__creds/<ns>), with the host they reached:
 * what a test reads to show a host never got one. PUT /__expire/<ns> ends the namespace's session.
 */
import type http from 'node:http';

export interface CredentialHit {
  host: string;
  path: string;
  cookie: string | null;
  authorization: string | null;
  apiKey: string | null;
}

const hits = new Map<string, CredentialHit[]>();
const expired = new Set<string>();

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

const words = (what: string) =>
  `<p>${what} is a private page of the intranet wiki. It holds the team's runbooks, the on-call rota and the notes of every incident review, written for people who signed in.</p><p>Its second paragraph says more about ${what}, so that the page reads as an article and its main content is kept whole.</p>`;

type Reply = { status: number; headers?: Record<string, string>; body?: string };

const html = (body: string, headers: Record<string, string> = {}): Reply => ({
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
  body,
});

function hasSession(ns: string, req: http.IncomingMessage): boolean {
  return !expired.has(ns) && (req.headers.cookie ?? '').split(/;\s*/).includes(`session=sess-${ns}`);
}

const basic = (ns: string) => `Basic ${Buffer.from(`user-${ns}:pass-${ns}`).toString('base64')}`;

function index(ns: string, other: string | null): Reply {
  const base = `/t/${ns}/private`;
  const away = other
    ? `<a href="http://${other}/t/${ns}/private/elsewhere.html">elsewhere</a> <a href="${base}/go.html?to=${encodeURIComponent(other)}">go</a>`
    : '';
  return html(
    page(
      'Private index',
      `${words('The index')}<ul><li><a href="${base}/cookie/a.html">cookie page</a></li><li><a href="${base}/basic/b.html">basic page</a></li><li><a href="${base}/header/c.html">header page</a></li><li>${away}</li></ul>`,
    ),
  );
}

function loginForm(ns: string, error: string): Reply {
  return html(
    page(
      'Sign in',
      `${error}<form method="post" action="/t/${ns}/private/login.html"><input id="user" name="user"><input id="pass" name="pass" type="password"><button id="go" type="submit">Sign in</button></form>`,
    ),
  );
}

async function login(ns: string, req: http.IncomingMessage): Promise<Reply> {
  if (req.method !== 'POST') return loginForm(ns, '');
  let text = '';
  for await (const chunk of req) text += String(chunk);
  const form = new URLSearchParams(text);
  if (form.get('user') !== `user-${ns}` || form.get('pass') !== `pass-${ns}`)
    return loginForm(ns, '<p class="error">Wrong user name or password.</p>');
  expired.delete(ns);
  return {
    status: 302,
    headers: { location: `/t/${ns}/private/cookie/a.html`, 'set-cookie': `session=sess-${ns}; Path=/; HttpOnly` },
  };
}

/** A page whose script asks its own host and another for a page: what a browser sends each, with credentials. */
function mixed(ns: string, other: string): Reply {
  const path = `/t/${ns}/private/elsewhere.html`;
  const script = `<script>Promise.all([fetch('${path}'), fetch('http://${other}${path}', { mode: 'no-cors' })]).then(() => { const p = document.createElement('p'); p.textContent = 'Both hosts answered the script of the mixed page.'; document.querySelector('main').appendChild(p); });</script>`;
  return html(page('Mixed page', `${words('The mixed page')}${script}`));
}

const APP_SCRIPT = (ns: string) =>
  `<script>fetch('/t/${ns}/private/cookie/data.json').then(r => r.json()).then(d => { const m = document.querySelector('main'); for (const t of d.paragraphs) { const p = document.createElement('p'); p.textContent = t; m.appendChild(p); } });</script>`;

function cookiePage(ns: string, rest: string, req: http.IncomingMessage): Reply {
  if (!hasSession(ns, req))
    return { status: 302, headers: { location: `/t/${ns}/private/login.html?next=${encodeURIComponent(rest)}` } };
  if (rest === 'data.json')
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        paragraphs: [
          'The rendered runbook arrived by script, fetched with the session cookie of the signed-in crawler.',
          'Its second paragraph tells the on-call engineer which dashboards to open first during an incident.',
        ],
      }),
    };
  if (rest === 'app.html')
    return html(
      `<!doctype html><html><head><title>Runbook app</title></head><body><main><h1>Runbook app</h1></main>${APP_SCRIPT(ns)}</body></html>`,
    );
  const next = rest === 'a.html' ? `<a href="/t/${ns}/private/cookie/a2.html">more</a>` : '';
  return html(page(`Cookie page ${rest}`, `${words(`Cookie page ${rest}`)}${next}`), {
    'set-cookie': `rotated=tok-${ns}; Path=/`,
  });
}

/** Each namespace's rotating session: its number, and the pages served with it. */
const rotation = new Map<string, { k: number; served: number }>();

/** A page of the rotating session: refused unless it carries the current session; every third renews it. */
function rotatingPage(ns: string, rest: string, url: URL, req: http.IncomingMessage): Reply {
  const state = rotation.get(ns) ?? { k: 0, served: 0 };
  rotation.set(ns, state);
  if (!(req.headers.cookie ?? '').split(/;\s*/).includes(`rsess=rot-${ns}-${state.k}`))
    return { status: 302, headers: { location: `/t/${ns}/private/login.html` } };
  state.served++;
  const headers: Record<string, string> = {};
  if (state.served % 3 === 0) {
    state.k++;
    headers['set-cookie'] = `rsess=rot-${ns}-${state.k}; Path=/t/${ns}/private/; HttpOnly`;
  }
  const n = Number(/^p(\d+)\.html$/.exec(rest)?.[1] ?? 0);
  const other = url.searchParams.get('other') ?? '';
  const next = n < 10 ? `<a href="p${n + 1}.html?other=${encodeURIComponent(other)}">next</a>` : '';
  const away = `<a href="http://${other}/t/${ns}/private/rotating-away.html">away</a>`;
  return html(page(`Rotating page ${n}`, `${words(`Rotating page ${n}`)}${next} ${away}`), headers);
}

/** The private site's answer to `rest` (the path after /t/<ns>/private/), or null for a path it does not serve. */
export async function privateSite(
  ns: string,
  rest: string,
  url: URL,
  req: http.IncomingMessage,
): Promise<Reply | null> {
  const list = hits.get(ns) ?? [];
  hits.set(ns, list);
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : null;
  };
  list.push({
    host: req.headers.host ?? '',
    path: `${url.pathname}${url.search}`,
    cookie: header('cookie'),
    authorization: header('authorization'),
    apiKey: header('x-api-key'),
  });
  if (rest === '' || rest === 'index.html') return index(ns, url.searchParams.get('other'));
  if (rest === 'login.html') return login(ns, req);
  if (rest === 'mixed.html') return mixed(ns, url.searchParams.get('other') ?? '');
  if (rest === 'go.html')
    return { status: 302, headers: { location: `http://${url.searchParams.get('to')}/t/${ns}/private/landed.html` } };
  if (rest === 'elsewhere.html' || rest === 'landed.html') return html(page(`Another host's ${rest}`, words(rest)));
  if (rest.startsWith('cookie/')) return cookiePage(ns, rest.slice('cookie/'.length), req);
  if (rest.startsWith('rotating/')) return rotatingPage(ns, rest.slice('rotating/'.length), url, req);
  if (rest === 'rotating-away.html')
    return html(page('Away', words('Away')), { 'set-cookie': `rsess=planted-${ns}; Path=/` });
  if (rest.startsWith('basic/'))
    return header('authorization') === basic(ns)
      ? html(page(`Basic page ${rest}`, words(`Basic page ${rest}`)))
      : {
          status: 401,
          headers: { 'www-authenticate': 'Basic realm="wiki"', 'content-type': 'text/plain' },
          body: 'no',
        };
  if (rest.startsWith('header/'))
    return header('x-api-key') === `key-${ns}`
      ? html(page(`Header page ${rest}`, words(`Header page ${rest}`)))
      : { status: 403, headers: { 'content-type': 'text/plain' }, body: 'forbidden' };
  return null;
}

/** GET /__creds/<ns> and PUT /__expire/<ns>; null for any other path. */
export function privateControl(pathname: string, method: string | undefined): Reply | null {
  const creds = /^\/__creds\/([A-Za-z0-9_-]+)$/.exec(pathname);
  if (creds)
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(hits.get(creds[1] as string) ?? []),
    };
  const expire = /^\/__expire\/([A-Za-z0-9_-]+)$/.exec(pathname);
  if (expire && method === 'PUT') {
    expired.add(expire[1] as string);
    return { status: 204 };
  }
  return null;
}
