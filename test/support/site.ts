/**
 * A deterministic test site served on loopback, for tests and benchmarks. Runs in Node.
 *
 * Paths are /t/<ns>/<variant>/..., where <ns> is any token a test picks so that its requests can be
 * told apart in the request log (GET /__log/<ns>), and <variant> selects a site:
 *   tree-<n>[-d<ms>]  n pages in a binary tree (p1 .. pn, children p2i and p2i+1) plus cross links,
 *                     different spellings of the same URLs, links out of scope, and a binary file
 *                     under files/ every 25 pages; optional response delay in ms.
 *   pure-<n>          the same tree with nothing but child links (exact depths).
 *   flat-<n>[-d<ms>]  a root page linking to p1 .. pn, which link nowhere (a wide frontier at once).
 *   busy-<n>[-d<ms>]  the pure tree, but the first request for each page is answered 429 with Retry-After: 1.
 *   faults            what a hostile or broken server does: connection resets (once, always), a hang before
 *                     the headers and one in the middle of the body, a 64 MiB body, gzip and brotli bombs,
 *                     a redirect loop, redirects to file: and to refused loopback addresses (127.0.0.77
 *                     in three spellings). Bytes written per path: GET /__sent/<ns>. Not linked, not a fault:
 *                     gzipped.html, a page sent gzip-encoded with its Content-Length (a WARC keeps its headers).
 *   mapped            pages found only through sitemaps: robots.txt (registered by the test) names index.xml,
 *                     a sitemap index of a plain and a gzipped sitemap.
 *   atlas-<n>         for POST /v1/map: a start page with links, index.xml (a plain and a gzipped sitemap, with
 *                     lastmod), and big.xml.gz: <n> URLs in one gzipped sitemap.
 *   cond-<n>          ETag / Last-Modified and 304s for recrawls; PUT /__bump/<ns> changes p2, removes p3,
 *                     adds p<n+1>; GET /__cond/<ns> lists the conditional headers received.
 *   watch             a site that changes between two crawls (text, a field, a removed page, noise), see
 *                     watch-site.ts.
 *   grow-<n>[-d<ms>]  n docs pages in a ten-ary tree under docs/, a blog/ and top-level pages, that change
 *                     between two crawls (an edit, a page removed, one unlinked, one added), see grow-site.ts.
 *   shop, copies, lookalikes  canonicals and pages of the same content, for duplicates (see shop-site.ts).
 *   products          product pages with their facts as "Label: value" lines, for the model step (product-site.ts).
 *   spa               pages built by scripts and server-rendered ones, for rendering (see spa-site.ts).
 *   pdf               PDFs: text with metadata, links, scanned, broken, huge (see pdf-site.ts).
 *   long-<kb>         a root linking to short.html ("Short note") and long.html ("Long read", kb KiB of
 *                     paragraphs), for reading a page in parts.
 *   private           a site behind a login: cookie, basic and header pages, a login form (private-site.ts).
 *   trap-<kind>       twelve pages of prose beside a crawler trap: calendar, agenda, facets, loop, session, visit,
 *                     soft404 (see trap-sites.ts).
 *   misc              redirects (ok, duplicate, loop, over-long chain, out of scope, to file:), a 404,
 *                     text/plain with markup in it, a 503-then-200 page, other port and other host links;
 *                     not linked: always-503, and fixable.html (404 until PUT /__fix/<ns>).
 *
 * Per host (the Host header), the server also keeps a log of every request with its arrival time, user
 * agent and the number of requests to that host in flight at once (GET /__hostlog), and serves the
 * /robots.txt a test registered with PUT /__robots[?status=N&location=URL] (404 when none).
 */
import http from 'node:http';
import zlib from 'node:zlib';
import { docsSite } from './docs-site.ts';
import { growSite } from './grow-site.ts';
import type { HostLogEntry } from './host-log';
import { pdfSite } from './pdf-site.ts';
import { privateControl, privateSite } from './private-site.ts';
import { productSite } from './product-site.ts';
import { shopSite } from './shop-site.ts';
import { spaSite, trapHit, trapHits } from './spa-site.ts';
import { TRAP_KINDS, trapSite } from './trap-sites.ts';
import { watchSite } from './watch-site.ts';

export interface SiteServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

interface RequestLog {
  /** "host path" of every request, in arrival order. */
  entries: string[];
}

const logs = new Map<string, RequestLog>();
const flakyServed = new Set<string>();

interface HostState {
  entries: HostLogEntry[];
  active: number;
  maxConcurrent: number;
  robots?: { status: number; body: string; location?: string };
}
const hosts = new Map<string, HostState>();
function hostState(host: string): HostState {
  let state = hosts.get(host);
  if (!state) {
    state = { entries: [], active: 0, maxConcurrent: 0 };
    hosts.set(host, state);
  }
  return state;
}
const busyServed = new Set<string>();
/** Conditional GETs seen by the cond variant, per namespace; and the namespaces whose site changed. */
const condLog = new Map<
  string,
  { path: string; ifNoneMatch: string | null; ifModifiedSince: string | null; status: number }[]
>();
const bumped = new Set<string>();
const LAST_MODIFIED = 'Wed, 01 Jul 2026 00:00:00 GMT';

/**
 * cond-<n>: a root linking p1..pn, with ETag and Last-Modified, answering 304 to matching conditional
 * requests. After PUT /__bump/<ns>: p2 has changed, p3 is gone (404), and p<n+1> is new.
 */
function cond(ns: string, n: number, rest: string, req: http.IncomingMessage, res: http.ServerResponse): void {
  const changed = bumped.has(ns);
  const count = changed ? n + 1 : n;
  const page = /^p(\d+)\.html$/.exec(rest);
  const i = page ? Number(page[1]) : 0;
  let status = 200;
  let etag = changed ? '"root-2"' : '"root"';
  let body = `<html><head><title>Cond</title></head><body>${Array.from({ length: count }, (_, k) => `<a href="p${k + 1}.html">${k + 1}</a>`).join(' ')}</body></html>`;
  if (rest !== '') {
    if (!page || i < 1 || i > count || (changed && i === 3)) status = 404;
    etag = changed && i === 2 ? '"v2-2"' : `"v1-${i}"`;
    body = `<html><head><title>Cond ${i}${changed && i === 2 ? ' (changed)' : ''}</title></head><body>page ${i}</body></html>`;
    if (changed && i === 2) body = body.replace('(changed)', 'changed');
  }
  const ifNoneMatch = req.headers['if-none-match'] ?? null;
  const ifModifiedSince = req.headers['if-modified-since'] ?? null;
  if (
    status === 200 &&
    (ifNoneMatch === etag || (ifNoneMatch === null && ifModifiedSince === LAST_MODIFIED && !(changed && i === 2)))
  )
    status = 304;
  const log = condLog.get(ns) ?? [];
  log.push({ path: rest, ifNoneMatch, ifModifiedSince, status });
  condLog.set(ns, log);
  if (status === 404) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('gone');
  } else {
    res.writeHead(status, {
      etag,
      'last-modified': LAST_MODIFIED,
      ...(status === 200 ? { 'content-type': 'text/html' } : {}),
    });
    res.end(status === 200 ? body : undefined);
  }
}

/** Namespaces whose misc/fixable.html has been "fixed" (PUT /__fix/<ns>): 404 before, 200 after. */
const fixed = new Set<string>();
/** Webhook deliveries received per namespace (POST /__hook/<ns>[?fail=n]: the first n get a 500). */
const hooks = new Map<string, { headers: Record<string, string>; body: string; status: number }[]>();
const resetServed = new Set<string>();
/** Body bytes written per request path before the client went away (faults variant). */
const sent = new Map<string, number>();

const BIG_BYTES = 64 * 1024 * 1024;
let bombs: { gzip: Buffer; br: Buffer } | undefined;
function bomb(kind: 'gzip' | 'br'): Buffer {
  if (!bombs) {
    const zeros = Buffer.alloc(BIG_BYTES, 0x20);
    bombs = {
      gzip: zlib.gzipSync(zeros, { level: 9 }),
      br: zlib.brotliCompressSync(zeros, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }),
    };
  }
  return bombs[kind];
}

const FAULT_LINKS = [
  'ok.html',
  'reset-once',
  'reset',
  'hang',
  'hang-body',
  'big',
  'bomb',
  'bomb-br',
  'loop-a',
  'to-file',
  'to-private-a',
  'to-private-b',
  'to-private-c',
];

/** The faults variant writes to the socket itself; returns false when the path is not one of its own. */
function faults(ns: string, rest: string, req: http.IncomingMessage, res: http.ServerResponse, port: number): boolean {
  const key = `/t/${ns}/faults/${rest}`;
  const html = (body: string) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<html><head><title>${rest || 'faults'}</title></head><body>${body}</body></html>`);
  };
  const redirect = (location: string) => {
    res.writeHead(302, { location });
    res.end();
  };
  switch (rest) {
    case '':
      html(FAULT_LINKS.map((l) => `<a href="${l}">${l}</a>`).join(' '));
      return true;
    case 'ok.html':
      html('fine');
      return true;
    case 'gzipped.html': {
      const body = zlib.gzipSync(
        `<html><head><title>Gzipped</title></head><body>${'squeezed '.repeat(200)}</body></html>`,
      );
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': body.length });
      res.end(body);
      return true;
    }
    case 'reset-once':
      if (resetServed.has(key)) html('fine the second time');
      else {
        resetServed.add(key);
        req.socket.destroy();
      }
      return true;
    case 'reset':
      req.socket.destroy();
      return true;
    case 'hang':
      return true; // never answers; the client gives up
    case 'hang-body':
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><body>the rest never comes');
      return true;
    case 'big': {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(BIG_BYTES) });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      let written = 0;
      const pump = () => {
        while (written < BIG_BYTES && !res.destroyed) {
          written += chunk.length;
          sent.set(key, written);
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        if (!res.destroyed) res.end();
      };
      pump();
      return true;
    }
    case 'bomb':
    case 'bomb-br': {
      const body = bomb(rest === 'bomb' ? 'gzip' : 'br');
      res.writeHead(200, {
        'content-type': 'text/html',
        'content-encoding': rest === 'bomb' ? 'gzip' : 'br',
        'content-length': String(body.length),
      });
      res.end(body);
      sent.set(key, body.length);
      return true;
    }
    case 'loop-a':
      redirect('loop-b');
      return true;
    case 'loop-b':
      redirect('loop-a');
      return true;
    case 'to-file':
      redirect('file:///etc/passwd');
      return true;
    // 127.0.0.77 is loopback but not allowed by the tests' ALLOW_PRIVATE_NETWORKS: never to be fetched.
    case 'to-private-a':
      redirect(`http://127.0.0.77:${port}/a`);
      return true;
    case 'to-private-b':
      redirect(`http://0x7f00004d:${port}/b`);
      return true;
    case 'to-private-c':
      redirect(`http://[::ffff:127.0.0.77]:${port}/c`);
      return true;
    default:
      return false;
  }
}

/** A made-up word of letters only (no digit, so searches for numbers find the page's own): 'z' and five more. */
const madeUp = (x: number): string =>
  `z${Array.from({ length: 5 }, (_, i) => String.fromCharCode(97 + (Math.floor(x / 26 ** i) % 26))).join('')}`;

/**
 * Text of about `bytes` bytes, different for every seed: words of a small vocabulary, and every eighth a made-up word
 * of the page's own (a name, a place), so that pages of one site are different pages as real pages are, not copies of
 * one another in another order (the crawler's trap rules and near-duplicates tell such copies apart).
 */
function filler(seed: number, bytes: number): string {
  const words = ['crawl', 'edge', 'queue', 'durable', 'object', 'polite', 'fetch', 'parse', 'store', 'worker'];
  let out = '';
  let x = seed + 1;
  for (let n = 1; out.length < bytes; n++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const word = n % 8 === 0 ? madeUp(x) : words[x % words.length];
    out += word + (x % 7 === 0 ? '.\n' : ' ');
  }
  return out;
}

function binaryBody(i: number): Buffer {
  const bytes = Buffer.alloc(1024 + i);
  for (let j = 0; j < bytes.length; j++) bytes[j] = (j * 31 + i) & 255;
  bytes.write('<a href="hidden.html">not parsed</a>', 100, 'latin1');
  return bytes;
}

function treePage(
  ns: string,
  variant: string,
  n: number,
  i: number,
  pure: boolean,
  portA: number,
  fillerBytes: number,
): string {
  const base = `/t/${ns}/${variant}/`;
  const links: string[] = [];
  for (const c of [2 * i, 2 * i + 1]) if (c <= n) links.push(c % 2 === 0 ? `p${c}.html` : `./p${c}.html`);
  if (!pure) {
    if (i > 1) links.push(`../${variant}/%70${Math.floor(i / 2)}.html`); // %70 is "p": same URL after normalization
    links.push(`#top`, `${base}`, `p${i}.html#section`);
    if (i < n) links.push(`HTTP://127.0.0.1:${portA}${base}p${i + 1}.html`);
    links.push(`http://localhost:${portA}${base}p1.html`, 'mailto:someone@example.com', 'javascript:void(0)');
    if (i % 25 === 0) links.push(`files/${i}.bin`);
  }
  const anchors = links.map((href, k) => `<li><a href="${href}">link ${k}</a></li>`).join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Tree page ${i}</title></head>
<body><h1 id="top">Page ${i} of ${n}</h1><ul>
${anchors}
</ul><p>${filler(i, fillerBytes)}</p></body></html>`;
}

function treeRoot(ns: string, variant: string, n: number): string {
  return `<!doctype html><html><head><title>Tree ${variant}</title></head><body><a href="/t/${ns}/${variant}/p1.html">start</a> of ${n}</body></html>`;
}

function flatRoot(n: number): string {
  const links = Array.from({ length: n }, (_, i) => `<a href="p${i + 1}.html">${i + 1}</a>`).join('\n');
  return `<!doctype html><html><head><title>Flat ${n}</title></head><body>${links}</body></html>`;
}

/**
 * bench-<n>-<kb>-<links>[-d<ms>]: n pages of about kb KiB, each with `links` links (to the next page and
 * to pseudo-random others), for throughput benchmarks. The root links to p0.
 */
export function benchPage(n: number, kb: number, linkCount: number, i: number): string {
  const links = [`p${(i + 1) % n}.html`];
  let x = i * 2654435761 + 1;
  while (links.length < linkCount) {
    x = (x * 1103515245 + 12345) % 2147483648;
    links.push(`p${x % n}.html`);
  }
  const anchors = links.map((href, k) => `<li><a href="${href}">link ${k}</a></li>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Bench ${i}</title></head><body><ul>${anchors}</ul><p>${filler(i, Math.max(0, kb * 1024 - anchors.length - 120))}</p></body></html>`;
}

const MISC_LINKS = [
  'ok.html',
  'moved',
  'moved-dup',
  'loop-a',
  'chain-0',
  'missing.html',
  'gone-ext',
  'to-file',
  'doc.txt',
  'flaky.html',
];

type Reply = { status: number; headers?: Record<string, string>; body?: string | Buffer; delayMs?: number };

function misc(ns: string, rest: string, portA: number, portB: number): Reply {
  const base = `/t/${ns}/misc/`;
  const html = (title: string, body = '') => ({
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<html><head><title>${title}</title></head><body>${body}</body></html>`,
  });
  const redirect = (status: number, location: string) => ({ status, headers: { location }, body: '' });
  if (rest === '') {
    const links = [
      ...MISC_LINKS,
      `http://127.0.0.1:${portB}${base}other-port.html`,
      `http://localhost:${portA}${base}other-host.html`,
    ];
    return html('Misc', links.map((l) => `<a href="${l}">${l}</a>`).join(' '));
  }
  if (rest === 'ok.html' || rest === 'ok2.html' || rest === 'other-port.html' || rest === 'other-host.html')
    return html(rest);
  if (rest === 'moved') return redirect(301, 'ok2.html');
  if (rest === 'moved-dup') return redirect(302, `${base}ok.html`);
  if (rest === 'loop-a') return redirect(302, 'loop-b');
  if (rest === 'loop-b') return redirect(302, 'loop-a');
  const chain = /^chain-(\d+)$/.exec(rest);
  if (chain) return redirect(302, `chain-${Number(chain[1]) + 1}`);
  if (rest === 'fixable.html')
    return fixed.has(ns) ? html('Fixed') : { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not yet' };
  if (rest === 'always-503') return { status: 503, headers: { 'content-type': 'text/plain' }, body: 'unavailable' };
  if (rest === 'gone-ext') return redirect(301, `http://localhost:${portA}${base}elsewhere.html`);
  if (rest === 'to-file') return redirect(302, 'file:///etc/passwd');
  if (rest === 'doc.txt')
    return {
      status: 200,
      headers: { 'content-type': 'text/plain' },
      body: 'plain text with <a href="not-a-link.html">markup</a>',
    };
  if (rest === 'flaky.html') {
    const key = `${ns}/flaky`;
    if (!flakyServed.has(key)) {
      flakyServed.add(key);
      return { status: 503, headers: { 'retry-after': '1', 'content-type': 'text/plain' }, body: 'try again' };
    }
    return html('Flaky but fine');
  }
  return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
}

/** long-<kb>: a root, a short page, and a long one of about kb KiB of paragraphs. */
function longSite(rest: string, kb: number): Reply {
  const html = (title: string, body: string): Reply => ({
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`,
  });
  if (rest === '')
    return html('Long site', '<p><a href="short.html">a short note</a> and <a href="long.html">a long read</a></p>');
  if (rest === 'short.html') return html('Short note', '<p>The short note says little.</p>');
  if (rest !== 'long.html') return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
  const paragraphs: string[] = [];
  for (let i = 0; paragraphs.join('').length < kb * 1024; i++)
    paragraphs.push(`<p>Paragraph ${i}: ${filler(i, 600).replace(/\n/g, ' ')}</p>`);
  return html('Long read', `${paragraphs.join('\n')}<p>The end of the long read.</p>`);
}

/** Sitemaps: index.xml lists map-1.xml and map-2.xml.gz (gzip); they list s1..s8, found nowhere else. */
function mapped(ns: string, rest: string, host: string): Reply {
  const base = `http://${host}/t/${ns}/mapped/`;
  const xml = (body: string): Reply => ({
    status: 200,
    headers: { 'content-type': 'application/xml' },
    body: `<?xml version="1.0" encoding="UTF-8"?>\n${body}`,
  });
  const urlset = (locs: string[]) =>
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`;
  const page = (title: string): Reply => ({
    status: 200,
    headers: { 'content-type': 'text/html' },
    body: `<html><head><title>${title}</title></head><body>${title}</body></html>`,
  });
  const localhost = `http://localhost:${host.split(':')[1]}/t/${ns}/mapped/`;
  switch (rest) {
    case '':
      return page('Mapped root <a href="a.html">a</a>');
    case 'a.html':
      return page('A');
    case 'index.xml':
      return xml(
        `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><!-- <sitemap><loc>${base}commented.xml</loc></sitemap> -->` +
          `<sitemap><loc>${base}map-1.xml</loc></sitemap><sitemap><loc> ${base}map-2.xml.gz </loc></sitemap><sitemap><loc>${localhost}map-3.xml</loc></sitemap></sitemapindex>`,
      );
    case 'map-1.xml':
      return xml(
        urlset([
          `${base}s1.html`,
          `${base}s2.html`,
          `${base}s3.html`,
          `${base}s4.html`,
          `${base}s5.html?a=1&amp;b=2`,
          `${base}a.html`,
          `${localhost}elsewhere.html`,
          `${base}private/x.html`,
        ]),
      );
    case 'map-2.xml.gz':
      return {
        status: 200,
        headers: { 'content-type': 'application/x-gzip' },
        body: zlib.gzipSync(
          `<?xml version="1.0"?>${urlset([`${base}s6.html`, `${base}s7.html`, `<![CDATA[${base}s8.html]]>`])}`,
        ),
      };
    default: {
      const s = /^s([1-8])\.html$/.exec(rest);
      return s
        ? page(`Only in a sitemap ${s[1]}`)
        : { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
    }
  }
}

/** Gzipped big sitemaps, by their base URL and size (built once: 50,000 URLs take a moment). */
const bigSitemaps = new Map<string, Buffer>();

function bigSitemap(base: string, n: number): Buffer {
  const key = `${base}|${n}`;
  let gz = bigSitemaps.get(key);
  if (!gz) {
    const urls: string[] = [];
    for (let i = 1; i <= n; i++)
      urls.push(
        `<url><loc>${base}items/item-${i}.html</loc><lastmod>2026-03-${String((i % 28) + 1).padStart(2, '0')}</lastmod></url>`,
      );
    gz = zlib.gzipSync(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`,
    );
    bigSitemaps.set(key, gz);
  }
  return gz;
}

/**
 * For POST /v1/map: a start page with links (one of them also in a sitemap, one on another host), index.xml of
 * map-1.xml (plain) and map-2.xml.gz (gzip), with lastmod; big.xml.gz lists n URLs.
 */
function atlas(ns: string, rest: string, host: string, n: number): Reply {
  const base = `http://${host}/t/${ns}/atlas-${n}/`;
  const other = `http://localhost:${host.split(':')[1]}/t/${ns}/atlas-${n}/`;
  const xml = (body: string): Reply => ({
    status: 200,
    headers: { 'content-type': 'application/xml' },
    body: `<?xml version="1.0" encoding="UTF-8"?>\n${body}`,
  });
  const urlset = (entries: [string, string | null][]) =>
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries
      .map(([loc, lastmod]) => `<url><loc>${loc}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`)
      .join('')}</urlset>`;
  const html = (title: string, body = ''): Reply => ({
    status: 200,
    headers: { 'content-type': 'text/html' },
    body: `<html><head><title>${title}</title></head><body>${body}</body></html>`,
  });
  switch (rest) {
    case '':
      return html(
        'Atlas home',
        `<a href="a.html">a</a> <a href="s1.html#top">s1</a> <a href="${other}away.html">away</a> <a href="/t/${ns}/atlas-${n}/b.html?">b</a> <a href="private/notes.html">notes</a>`,
      );
    case 'index.xml':
      return xml(
        `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}map-1.xml</loc><lastmod>2026-01-01</lastmod></sitemap>` +
          `<sitemap><loc>${base}map-2.xml.gz</loc></sitemap><sitemap><loc>${other}map-3.xml</loc></sitemap></sitemapindex>`,
      );
    case 'map-1.xml':
      return xml(
        urlset([
          [`${base}s1.html`, '2026-01-11'],
          [`${base}s2.html`, '2026-01-12T10:00:00+00:00'],
          [`${base}docs/pricing-plans.html`, null],
          [`${base}private/plan.html`, '2026-01-14'],
          [`${other}elsewhere.html`, '2026-01-13'],
        ]),
      );
    case 'map-2.xml.gz':
      return {
        status: 200,
        headers: { 'content-type': 'application/x-gzip' },
        body: zlib.gzipSync(
          `<?xml version="1.0"?>${urlset([
            [`${base}s3.html`, '2026-02-01'],
            [`${base}s1.html`, null],
            [`<![CDATA[${base}s4.html?b=2&a=1]]>`, '2026-02-04'],
          ])}`,
        ),
      };
    case 'big.xml.gz':
      return { status: 200, headers: { 'content-type': 'application/x-gzip' }, body: bigSitemap(base, n) };
    default:
      return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
  }
}

/** A loopback address no test allows (ALLOW_PRIVATE_NETWORKS): whatever reaches it got through a refusal. */
const TRAP_ADDRESS = '127.0.0.77';

function route(path: string, ports: Ports, host = `127.0.0.1:${ports.a}`): Reply {
  const [portA, portB] = [ports.a, ports.b];
  const m = /^\/t\/([A-Za-z0-9_-]+)\/([a-z]+(?:-\d+)*(?:-d\d+)?)\/(.*)$/.exec(path);
  if (!m) return { status: 404, body: 'no such site' };
  const [, ns, variant, rest] = m as unknown as [string, string, string, string];
  if (variant === 'misc') return misc(ns, rest, portA, portB);
  if (variant === 'mapped') return mapped(ns, rest, host);
  const atlasN = /^atlas-(\d+)$/.exec(variant);
  if (atlasN) return atlas(ns, rest, host, Number(atlasN[1]));
  if (variant === 'docs') return docsSite(ns, rest);
  if (variant === 'watch') return watchSite(ns, rest);
  const grow = /^grow-(\d+)(?:-d(\d+))?$/.exec(variant);
  if (grow) return growSite(ns, rest, Number(grow[1]), Number(grow[2] ?? 0));
  if (variant === 'shop' || variant === 'copies' || variant === 'lookalikes') return shopSite(ns, variant, rest);
  if (variant === 'products') return productSite(ns, rest);
  if (variant === 'spa') return spaSite(ns, rest, `${TRAP_ADDRESS}:${ports.trap}`);
  const long = /^long-(\d+)$/.exec(variant);
  if (long) return longSite(rest, Number(long[1]));
  const bench = /^bench-(\d+)-(\d+)-(\d+)(?:-d(\d+))?$/.exec(variant);
  if (bench) {
    const [n, kb, linkCount, delay] = [Number(bench[1]), Number(bench[2]), Number(bench[3]), Number(bench[4] ?? 0)];
    const html = (body: string): Reply => ({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body,
      delayMs: delay,
    });
    if (rest === '')
      return html('<html><head><title>Bench</title></head><body><a href="p0.html">start</a></body></html>');
    const m = /^p(\d+)\.html$/.exec(rest);
    if (m && Number(m[1]) < n) return html(benchPage(n, kb, linkCount, Number(m[1])));
    return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found', delayMs: delay };
  }
  const tree = /^(tree|pure|busy|flat)-(\d+)(?:-d(\d+))?$/.exec(variant);
  if (!tree) return { status: 404, body: 'no such variant' };
  const n = Number(tree[2]);
  const delayMs = tree[3] ? Number(tree[3]) : 0;
  const pure = tree[1] !== 'tree';
  if (tree[1] === 'busy' && !busyServed.has(path)) {
    busyServed.add(path);
    return { status: 429, headers: { 'retry-after': '1', 'content-type': 'text/plain' }, body: 'slow down', delayMs };
  }
  const htmlReply = (body: string): Reply => ({
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body,
    delayMs,
  });
  if (tree[1] === 'flat') {
    if (rest === '') return htmlReply(flatRoot(n));
    const flat = /^p(\d+)\.html$/.exec(rest);
    if (flat && Number(flat[1]) >= 1 && Number(flat[1]) <= n)
      return htmlReply(
        `<html><head><title>Flat ${flat[1]}</title></head><body>${filler(Number(flat[1]), 2000)}</body></html>`,
      );
    return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found', delayMs };
  }
  if (rest === '') return htmlReply(treeRoot(ns, variant, n));
  const page = /^p(\d+)\.html$/.exec(rest);
  if (page && Number(page[1]) >= 1 && Number(page[1]) <= n)
    return htmlReply(treePage(ns, variant, n, Number(page[1]), pure, portA, 4000));
  const file = /^files\/(\d+)\.bin$/.exec(rest);
  if (file && !pure)
    return {
      status: 200,
      headers: { 'content-type': 'application/octet-stream' },
      body: binaryBody(Number(file[1])),
      delayMs,
    };
  return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found', delayMs };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => resolve(body));
  });
}

interface Ports {
  a: number;
  b: number;
  trap: number;
}

/** The private site (private-site.ts) of /t/<ns>/private/..., or null for any other path. */
function privateMatch(url: URL, req: http.IncomingMessage) {
  const match = /^\/t\/([A-Za-z0-9_-]+)\/private\/(.*)$/.exec(url.pathname);
  return match ? privateSite(match[1] as string, match[2] as string, url, req) : Promise.resolve(null);
}

function handler(ports: Ports) {
  return async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const host = req.headers.host ?? '';
    if (host.startsWith(`${TRAP_ADDRESS}:`)) {
      trapHit(url.pathname);
      res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
      res.end('trapped');
      return;
    }
    const trapMatch = /^\/__trap\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (trapMatch) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(trapHits(trapMatch[1] as string)));
      return;
    }
    if (url.pathname === '/__hostlog') {
      const state = hostState(host);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ entries: state.entries, maxConcurrent: state.maxConcurrent }));
      return;
    }
    if (url.pathname === '/__robots' && req.method === 'PUT') {
      const location = url.searchParams.get('location');
      hostState(host).robots = {
        status: Number(url.searchParams.get('status') ?? 200),
        body: await readBody(req),
        ...(location ? { location } : {}),
      };
      res.writeHead(204);
      res.end();
      return;
    }
    const state = hostState(host);
    state.active += 1;
    state.maxConcurrent = Math.max(state.maxConcurrent, state.active);
    state.entries.push({
      path: `${url.pathname}${url.search}`,
      at: performance.timeOrigin + performance.now(),
      userAgent: req.headers['user-agent'] ?? '',
      concurrent: state.active,
    });
    res.on('close', () => (state.active -= 1));
    if (url.pathname === '/robots.txt') {
      const robots = state.robots ?? { status: 404, body: 'no robots.txt' };
      res.writeHead(robots.status, {
        'content-type': 'text/plain',
        ...(robots.location ? { location: robots.location } : {}),
      });
      res.end(robots.body);
      return;
    }
    const logMatch = /^\/__log\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (logMatch) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(logs.get(logMatch[1] as string) ?? { entries: [] }));
      return;
    }
    const ns = /^\/t\/([A-Za-z0-9_-]+)\//.exec(url.pathname)?.[1];
    if (ns) {
      const log = logs.get(ns) ?? { entries: [] };
      log.entries.push(`${req.headers.host} ${url.pathname}${url.search}`);
      logs.set(ns, log);
    }
    const control = /^\/__(cond|bump)\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (control?.[1] === 'cond') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(condLog.get(control[2] as string) ?? []));
      return;
    }
    if (control?.[1] === 'bump' && req.method === 'PUT') {
      bumped.add(control[2] as string);
      res.writeHead(204);
      res.end();
      return;
    }
    const condMatch = /^\/t\/([A-Za-z0-9_-]+)\/cond-(\d+)\/(.*)$/.exec(url.pathname);
    if (condMatch) {
      cond(condMatch[1] as string, Number(condMatch[2]), condMatch[3] as string, req, res);
      return;
    }
    const hookMatch = /^\/__hook\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (hookMatch) {
      const received = hooks.get(hookMatch[1] as string) ?? [];
      hooks.set(hookMatch[1] as string, received);
      if (req.method === 'POST') {
        const failFirst = Number(url.searchParams.get('fail') ?? 0);
        const status = received.length < failFirst ? 500 : 204;
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        received.push({ headers, body: await readBody(req), status });
        res.writeHead(status);
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(received));
      return;
    }
    const fixMatch = /^\/__fix\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (fixMatch && req.method === 'PUT') {
      fixed.add(fixMatch[1] as string);
      res.writeHead(204);
      res.end();
      return;
    }
    const sentMatch = /^\/__sent\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (sentMatch) {
      const prefix = `/t/${sentMatch[1]}/`;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(Object.fromEntries([...sent].filter(([k]) => k.startsWith(prefix)))));
      return;
    }
    const privateReply = privateControl(url.pathname, req.method) ?? (await privateMatch(url, req));
    if (privateReply) {
      res.writeHead(privateReply.status, privateReply.headers ?? {});
      res.end(privateReply.body ?? '');
      return;
    }
    const fault = /^\/t\/([A-Za-z0-9_-]+)\/faults\/(.*)$/.exec(url.pathname);
    if (fault && faults(fault[1] as string, fault[2] as string, req, res, ports.a)) return;
    if (await pdfSite(url.pathname, req, res)) return;
    const trapped = /^(\/t\/[A-Za-z0-9_-]+\/trap-([a-z0-9]+)\/)(.*)$/.exec(url.pathname);
    const kind = TRAP_KINDS.find((k) => k === trapped?.[2]);
    if (trapped && kind) {
      const trapReply = trapSite(kind, trapped[1] as string, `${trapped[3] ?? ''}`, url.searchParams);
      res.writeHead(trapReply.status, trapReply.headers);
      res.end(trapReply.body);
      return;
    }
    const reply = route(url.pathname, ports, host);
    const send = () => {
      res.writeHead(reply.status, reply.headers ?? {});
      res.end(reply.body ?? '');
    };
    if (reply.delayMs) setTimeout(send, reply.delayMs);
    else send();
  };
}

async function listenOn(server: http.Server, address: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const bound = server.address();
  if (typeof bound !== 'object' || bound === null) throw new Error('no address');
  return bound.port;
}

function wrap(server: http.Server, address: string, port: number): SiteServer {
  return {
    url: `http://${address}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Starts the site on two ports of 127.0.0.1 (for same-origin vs same-host tests) and on `extraHosts`
 * further loopback addresses (127.0.0.2, ...): each is a host of its own for robots.txt and politeness; and the
 * trap host (127.0.0.77), which records whatever reaches it (GET /__trap/<ns>).
 */
export async function startSites(extraHosts = 0): Promise<{ a: SiteServer; b: SiteServer; hosts: SiteServer[] }> {
  const ports = { a: 0, b: 0, trap: 0 };
  const serverA = http.createServer({ keepAlive: true }, handler(ports));
  const serverB = http.createServer({ keepAlive: true }, handler(ports));
  const trap = http.createServer({ keepAlive: true }, handler(ports));
  ports.a = await listenOn(serverA, '127.0.0.1');
  ports.b = await listenOn(serverB, '127.0.0.1');
  ports.trap = await listenOn(trap, TRAP_ADDRESS);
  const hostServers: SiteServer[] = [];
  for (let i = 0; i < extraHosts; i++) {
    const address = `127.0.0.${i + 2}`;
    const server = http.createServer({ keepAlive: true }, handler(ports));
    hostServers.push(wrap(server, address, await listenOn(server, address)));
  }
  const a = wrap(serverA, '127.0.0.1', ports.a);
  const trapServer = wrap(trap, TRAP_ADDRESS, ports.trap);
  // The trap host goes with the first site.
  const withTrap = { ...a, close: () => Promise.all([a.close(), trapServer.close()]).then(() => undefined) };
  return { a: withTrap, b: wrap(serverB, '127.0.0.1', ports.b), hosts: hostServers };
}
