/**
 * A folder of files (a documentation set) served over loopback for benchmarks, as a static web server does:
 * `/<ns>/<path>` serves `<dir>/<path>` (a folder its index.html), so each crawl of a run has a URL space of its own
 * on the same host. Per namespace it counts the distinct paths served (HTML and other) and the most requests in
 * flight at once. Files are read once and kept in memory, so the server costs little CPU beside the crawlers.
 */
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.py': 'text/x-python; charset=utf-8',
};

interface NamespaceStats {
  /** Distinct HTML paths answered 200. */
  html: number;
  /** Distinct other paths answered 200 (downloads, images, styles). */
  other: number;
  /** Distinct paths answered 404. */
  missing: number;
  peakInFlight: number;
}

export interface StaticSite {
  url: string;
  stats(ns: string): NamespaceStats;
  stop(): Promise<void>;
}

interface Counters {
  html: Set<string>;
  other: Set<string>;
  missing: Set<string>;
  active: number;
  peak: number;
}

/** The file a request path names inside `dir`, or null when it leaves the folder. */
function fileFor(dir: string, path: string): string | null {
  const file = normalize(join(dir, decodeURIComponent(path)));
  return file === dir || file.startsWith(dir.endsWith(sep) ? dir : dir + sep) ? file : null;
}

async function load(cache: Map<string, Buffer | null>, file: string): Promise<{ body: Buffer; file: string } | null> {
  let target = file;
  const cached = cache.get(target);
  if (cached !== undefined) return cached ? { body: cached, file: target } : null;
  try {
    if ((await stat(target)).isDirectory()) target = join(target, 'index.html');
    const body = await readFile(target);
    cache.set(file, body);
    return { body, file: target };
  } catch {
    cache.set(file, null);
    return null;
  }
}

export async function startStaticSite(dir: string): Promise<StaticSite> {
  const cache = new Map<string, Buffer | null>();
  const spaces = new Map<string, Counters>();
  const counters = (ns: string): Counters => {
    const c = spaces.get(ns) ?? { html: new Set(), other: new Set(), missing: new Set(), active: 0, peak: 0 };
    spaces.set(ns, c);
    return c;
  };
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    const [, ns = '', ...rest] = pathname.split('/');
    const c = counters(ns);
    c.active++;
    c.peak = Math.max(c.peak, c.active);
    res.on('close', () => c.active--);
    // Only paths inside a namespace: /robots.txt and the like are not part of the documentation set.
    const file = rest.length > 0 ? fileFor(dir, rest.join('/')) : null;
    const found = file ? await load(cache, file) : null;
    if (!found) {
      c.missing.add(pathname);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const type = TYPES[extname(found.file).toLowerCase()] ?? 'application/octet-stream';
    (type.startsWith('text/html') ? c.html : c.other).add(pathname);
    res.writeHead(200, { 'content-type': type, 'content-length': found.body.byteLength }).end(found.body);
  };
  const server = createServer((req, res) => void serve(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('static site: no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    stats: (ns) => {
      const c = counters(ns);
      return { html: c.html.size, other: c.other.size, missing: c.missing.size, peakInFlight: c.peak };
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
