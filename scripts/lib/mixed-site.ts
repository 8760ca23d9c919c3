/**
 * The mixed site of `npm run bench:render`, on loopback: `pages` pages, a share of them client-rendered. A
 * server-rendered page (/t/<ns>/doc/<id>) has its text and links in its HTML; a client-rendered one
 * (/t/<ns>/app/<id>) is an empty `<div id="root"></div>` and a script of its own (/t/<ns>/static/app-<id>.js,
 * a separate file as frameworks serve them) that, after a delay, writes the same kind of text and links into the
 * DOM. Links follow a tree (page i's parent is (i - 1) / FANOUT) plus a few more per page; a page whose parent is
 * client-rendered gets links from client-rendered pages only, so a crawler that does not render never finds it.
 * Every page's first paragraph holds a token unique to the page and the namespace, so a crawl's text can be checked.
 * Each namespace (/t/<ns>/) is a fresh copy of the site, one per crawl.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MixedSiteOptions {
  pages: number;
  /** Share of pages that are client-rendered, 0..1. */
  clientShare: number;
  /** Links per page besides the tree's. */
  links: number;
  /** The client-rendered pages' script writes the page this many ms after it runs: [min, max], per page. */
  delayMs: [number, number];
  /** Added to every response, ms. */
  latencyMs: number;
}

/** What the site served one namespace. */
interface SiteCounts {
  html: number;
  scripts: number;
  /** Most requests in flight at once. */
  peak: number;
}

export interface MixedSite {
  origin: string;
  /** The client-rendered pages, and those that only links written by scripts lead to. */
  clientRendered: number;
  scriptOnly: number;
  seed(ns: string): string;
  /** Every page's path and the token its text must hold. */
  expected(ns: string): Map<string, string>;
  counts(ns: string): SiteCounts;
  stop(): Promise<void>;
}

const FANOUT = 4;
const WORDS = (
  'crawler render browser queue worker page token script link graph durable object storage export record text ' +
  'markdown politeness host gate frontier consumer batch latency throughput concurrency chromium session edge'
).split(' ');

/** A fraction in [0, 1) from an integer, spread evenly (golden ratio), so any share of pages is hit closely. */
const spread = (n: number, salt = 0) => ((n + salt) * 0.6180339887498949) % 1;

/** Sentences of filler, the same for a page every time. */
function filler(id: number, sentences: number): string {
  const out: string[] = [];
  for (let s = 0; s < sentences; s++) {
    const words = Array.from({ length: 12 }, (_, w) => WORDS[(id * 31 + s * 7 + w * 13) % WORDS.length] as string);
    out.push(`${words.join(' ').replace(/^./, (c) => c.toUpperCase())}.`);
  }
  return out.join(' ');
}

class Layout {
  readonly client: boolean[];
  readonly outLinks: number[][];
  readonly options: MixedSiteOptions;
  constructor(options: MixedSiteOptions) {
    this.options = options;
    const { pages, clientShare, links } = options;
    this.client = Array.from({ length: pages }, (_, id) => id > 0 && spread(id) < clientShare);
    const parent = (id: number) => Math.floor((id - 1) / FANOUT);
    const hidden = (id: number) => id > 0 && (this.client[parent(id)] as boolean);
    this.outLinks = Array.from({ length: pages }, (_, id) => {
      const children = Array.from({ length: FANOUT }, (_, k) => id * FANOUT + 1 + k).filter((c) => c < pages);
      const more: number[] = [];
      for (let k = 0; more.length < links && k < links * 10; k++) {
        const to = Math.floor(spread(id * 97 + k, 0.5) * pages);
        if (to !== id && (this.client[id] || !hidden(to))) more.push(to);
      }
      return [...new Set([...children, ...more])];
    });
  }
  path(ns: string, id: number): string {
    return `/t/${ns}/${this.client[id] ? 'app' : 'doc'}/${id}`;
  }
  token(ns: string, id: number): string {
    return `tok${ns}x${id}`;
  }
  /** What <main> holds: a heading, the paragraph with the token, more text, and the page's links. */
  main(ns: string, id: number): string {
    const links = (this.outLinks[id] ?? []).map((to) => `<li><a href="${this.path(ns, to)}">Page ${to}</a></li>`);
    return (
      `<h1>Page ${id}</h1><p class="text">This is page ${id} of the mixed site; its token is ${this.token(ns, id)}. ` +
      `${filler(id, 6)}</p><p>${filler(id + 1, 10)}</p><nav><ul>${links.join('')}</ul></nav>`
    );
  }
  delay(id: number): number {
    const [min, max] = this.options.delayMs;
    return Math.round(min + spread(id, 0.25) * (max - min));
  }
}

const html = (title: string, head: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

/** The response for a path of the site, or null (404). */
function respond(layout: Layout, path: string): { type: string; body: string } | null {
  const m = /^\/t\/([a-z0-9]+)\/(?:(doc|app)\/(\d+)|static\/app-(\d+)\.js)$/.exec(path);
  if (!m) return null;
  const [ns, kind, id] = [m[1] as string, m[2] ?? 'script', Number(m[3] ?? m[4])];
  if (!(id < layout.options.pages) || (kind === 'doc') === layout.client[id]) return null;
  const page = 'text/html; charset=utf-8';
  if (kind === 'doc') return { type: page, body: html(`Page ${id}`, '', `<main>${layout.main(ns, id)}</main>`) };
  if (kind === 'app') {
    const script = `<script src="/t/${ns}/static/app-${id}.js" defer></script>`;
    return { type: page, body: html('App', script, '<div id="root"></div>') };
  }
  const render =
    `var m=document.createElement('main');m.innerHTML=${JSON.stringify(layout.main(ns, id))};` +
    `document.getElementById('root').appendChild(m);`;
  return { type: 'text/javascript; charset=utf-8', body: `setTimeout(function(){${render}},${layout.delay(id)});\n` };
}

export async function startMixedSite(options: MixedSiteOptions): Promise<MixedSite> {
  const layout = new Layout(options);
  const counts = new Map<string, SiteCounts & { now: number }>();
  const countsOf = (ns: string) => {
    const c = counts.get(ns) ?? { html: 0, scripts: 0, peak: 0, now: 0 };
    counts.set(ns, c);
    return c;
  };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    const c = countsOf(/^\/t\/([a-z0-9]+)\//.exec(path)?.[1] ?? '');
    c.now++;
    c.peak = Math.max(c.peak, c.now);
    if (options.latencyMs > 0) await new Promise((r) => setTimeout(r, options.latencyMs));
    const found = respond(layout, path);
    if (found) found.type.startsWith('text/html') ? c.html++ : c.scripts++;
    res.writeHead(found ? 200 : 404, { 'content-type': found?.type ?? 'text/plain' });
    res.end(found?.body ?? 'not found');
    c.now--;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const parentClient = (id: number) => id > 0 && (layout.client[Math.floor((id - 1) / FANOUT)] as boolean);
  return {
    origin,
    clientRendered: layout.client.filter(Boolean).length,
    scriptOnly: layout.client.filter((_, id) => parentClient(id)).length,
    seed: (ns) => `${origin}${layout.path(ns, 0)}`,
    expected: (ns) => new Map(layout.client.map((_, id) => [layout.path(ns, id), layout.token(ns, id)])),
    counts: (ns) => {
      const { html, scripts, peak } = countsOf(ns);
      return { html, scripts, peak };
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
