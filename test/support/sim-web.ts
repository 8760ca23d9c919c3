/**
 * A simulated web for broad crawls, in Node: N sites, each on a loopback address of its own (127.1.x.y, one
 * listening socket per address, all on one port the OS found free; never 0.0.0.0), each of twelve pages (a home page
 * linking three section pages, which link the eight articles), with prose of its own drawn from a seed, a navigation
 * and a footer shared by the site's pages, and no robots.txt (404). Every request is logged per address (path,
 * arrival time in ms at the server, requests to that address in flight), read from a control server on 127.0.0.1 of
 * its own port, so a crawl allowed 127.1.0.0/16 cannot reach it:
 *
 *   GET  /__sites                  {port, hosts, extra}: the sites' base URLs, the extra hosts'
 *   GET  /__log?host=H[&since=ms]  {host, entries, maxConcurrent}: H an address, host:port or base URL
 *   GET  /__log[?since=ms]         {hosts: {address: entries}} for every address that was asked something
 *   POST /__reset                  forgets every log
 *
 * Extra hosts (trap sites, say) are plugged in with their own handlers (`extraHosts`), served on their addresses at
 * the same port and logged the same way. In a script: `await startSimWeb({hosts: 1000})`. From vitest's global setup
 * or another process: `await spawnSimWeb({hosts: 80})` runs it in a child process (arrival times are then taken on an
 * event loop nothing else keeps busy), which is also this file run as a program:
 *
 *   node test/support/sim-web.ts --hosts 80 [--seed 1] [--extra ./module.ts]   (prints one JSON line, then serves)
 *
 * where the module exports `extraHosts: ExtraHost[]`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import type { HostLogEntry } from './host-log.ts';
import { mix, paragraphs, prng, type SitePage, type SitePlan, sitePlan } from './sim-prose.ts';

export type { HostLogEntry };

/** A host of someone else's making, served beside the sites: a trap, a slow site, a site with robots.txt. */
export interface ExtraHost {
  /** A loopback address, 127.x.y.z, not one of the sites' (they are 127.1.0.1 onwards). */
  address: string;
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void;
}

export interface SimWebOptions {
  /** How many sites (12 pages each), on 127.1.0.1, 127.1.0.2, ... (250 addresses per third byte). */
  hosts: number;
  /** The prose's seed: the same seed, the same web. Default 1. */
  seed?: number;
  extraHosts?: ExtraHost[];
}

/** Where the simulated web answers. */
export interface SimWebAddresses {
  /** The port every site listens on. */
  port: number;
  /** The sites' base URLs, `http://127.1.x.y:port` (no trailing slash): their home pages are `${host}/`. */
  hosts: string[];
  /** The extra hosts' base URLs, in the order given. */
  extra: string[];
  /** The control server's base URL (logs, reset). */
  control: string;
}

export interface SimWeb extends SimWebAddresses {
  close(): Promise<void>;
}

/** Pages per site. */
export const PAGES_PER_SITE = 12;

/** The address of site `i` (0-based): 127.1.x.y with y in 1..250. */
export function siteAddress(i: number): string {
  return `127.1.${Math.floor(i / 250)}.${(i % 250) + 1}`;
}

interface HostLog {
  entries: HostLogEntry[];
  active: number;
  maxConcurrent: number;
}

const html = (res: http.ServerResponse, status: number, body: string, type = 'text/html; charset=utf-8') => {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

/** A page of a site, as HTML: the site's header and navigation, its prose and links, the site's footer. */
function renderPage(seed: number, index: number, plan: SitePlan, page: SitePage, pageIndex: number): string {
  const random = prng(mix(seed, index, pageIndex + 1));
  const nav = plan.sections.map((s) => `<a href="${s.path}">${s.title}</a>`).join(' | ');
  const body = paragraphs(random, plan.topic, page.section === -1 ? 3 : page.article === -1 ? 2 : 5);
  const listed = page.links
    .map((path) => plan.pages.find((p) => p.path === path))
    .filter((p): p is SitePage => p !== undefined)
    .map((p) => `<li><a href="${p.path}">${p.title}</a></li>`)
    .join('\n');
  const intro = body.slice(3, body.indexOf('.') + 1);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${page.section === -1 ? plan.name : `${page.title} | ${plan.name}`}</title>
<meta name="description" content="${intro}"></head>
<body>
<header><a class="brand" href="/">${plan.name}</a><nav>${nav}</nav></header>
<main><article><h1>${page.title}</h1>
${body}
${listed ? `<ul class="more">\n${listed}\n</ul>` : ''}
</article></main>
<footer><p>${plan.name}: notes on ${plan.topic}, written by hand since 2009. Reprints welcome with a link.</p>
<a href="/">Home</a></footer>
</body></html>
`;
}

/** Serves the simulated web in this process. */
export async function startSimWeb(options: SimWebOptions): Promise<SimWeb> {
  const seed = options.seed ?? 1;
  const extraHosts = options.extraHosts ?? [];
  const sites = new Map<string, { index: number; plan?: SitePlan; byPath?: Map<string, number> }>();
  for (let i = 0; i < options.hosts; i++) sites.set(siteAddress(i), { index: i });
  const extra = new Map(extraHosts.map((h) => [h.address, h.handler]));
  for (const address of extra.keys())
    if (sites.has(address)) throw new Error(`extra host ${address} is a site's address`);
  const logs = new Map<string, HostLog>();
  const logOf = (address: string) => {
    let log = logs.get(address);
    if (!log) {
      log = { entries: [], active: 0, maxConcurrent: 0 };
      logs.set(address, log);
    }
    return log;
  };

  const serve = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const address = req.socket.localAddress ?? '';
    const log = logOf(address);
    log.active += 1;
    log.maxConcurrent = Math.max(log.maxConcurrent, log.active);
    log.entries.push({
      path: req.url ?? '/',
      at: performance.timeOrigin + performance.now(),
      userAgent: req.headers['user-agent'] ?? '',
      concurrent: log.active,
    });
    res.on('close', () => {
      log.active -= 1;
    });
    const handler = extra.get(address);
    if (handler) return handler(req, res);
    const site = sites.get(address);
    if (!site) return html(res, 404, 'no such host', 'text/plain');
    if (!site.plan) {
      site.plan = sitePlan(seed, site.index);
      site.byPath = new Map(site.plan.pages.map((p, i) => [p.path, i]));
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const pageIndex = site.byPath?.get(path);
    const page = pageIndex === undefined ? undefined : site.plan.pages[pageIndex];
    if (pageIndex === undefined || !page) return html(res, 404, 'not found', 'text/plain');
    html(res, 200, renderPage(seed, site.index, site.plan, page, pageIndex));
  };

  const server = http.createServer({ keepAlive: true }, serve);
  const addresses = [...sites.keys(), ...extra.keys()];
  const listeners = await listenAll(addresses, (socket) => server.emit('connection', socket));
  const control = http.createServer((req, res) => controlRoute(req, res, { logs, addresses: urls() }));
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const controlPort = (control.address() as net.AddressInfo).port;
  function urls() {
    const base = (a: string) => `http://${a}:${listeners.port}`;
    return { port: listeners.port, hosts: [...sites.keys()].map(base), extra: extraHosts.map((h) => base(h.address)) };
  }
  return {
    ...urls(),
    control: `http://127.0.0.1:${controlPort}`,
    close: async () => {
      server.closeAllConnections();
      await Promise.all([
        ...listeners.servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
        new Promise<void>((resolve) => {
          control.closeAllConnections();
          control.close(() => resolve());
        }),
      ]);
    },
  };
}

/**
 * One listening socket per address, all on one port: the first address takes a port the OS picks, the others take
 * the same; if one of them has it taken already, all are closed and another port is tried.
 */
async function listenAll(
  addresses: string[],
  onConnection: (socket: net.Socket) => void,
): Promise<{ port: number; servers: net.Server[] }> {
  const listen = (address: string, port: number) =>
    new Promise<net.Server>((resolve, reject) => {
      const s = net.createServer(onConnection);
      s.once('error', reject);
      s.listen({ port, host: address, backlog: 511 }, () => resolve(s));
    });
  for (let attempt = 1; ; attempt++) {
    const first = await listen(addresses[0] ?? '127.1.0.1', 0);
    const port = (first.address() as net.AddressInfo).port;
    const rest = await Promise.allSettled(addresses.slice(1).map((a) => listen(a, port)));
    const servers = [first, ...rest.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))];
    if (servers.length === addresses.length) return { port, servers };
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    if (attempt === 5) throw new Error(`no port free on all ${addresses.length} addresses`);
  }
}

/** The address a query names: `127.1.0.5`, `127.1.0.5:port` or `http://127.1.0.5:port/`. */
function addressOf(host: string): string {
  const bare = host.replace(/^https?:\/\//, '');
  return bare.split(/[:/]/)[0] ?? bare;
}

function controlRoute(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  web: { logs: Map<string, HostLog>; addresses: Omit<SimWebAddresses, 'control'> },
): void {
  const url = new URL(req.url ?? '/', 'http://control');
  if (url.pathname === '/__reset' && req.method === 'POST') {
    web.logs.clear();
    res.writeHead(204).end();
    return;
  }
  const answer = controlAnswer(url, web);
  if (answer === null) html(res, 404, 'not found', 'text/plain');
  else html(res, 200, JSON.stringify(answer), 'application/json');
}

/** What GET /__sites and GET /__log answer (null: no such route). */
function controlAnswer(
  url: URL,
  web: { logs: Map<string, HostLog>; addresses: Omit<SimWebAddresses, 'control'> },
): unknown {
  const since = Number(url.searchParams.get('since') ?? 0);
  const after = (entries: HostLogEntry[]) => (since > 0 ? entries.filter((e) => e.at >= since) : entries);
  if (url.pathname === '/__sites') return web.addresses;
  if (url.pathname !== '/__log') return null;
  const host = url.searchParams.get('host');
  if (host === null)
    return { hosts: Object.fromEntries([...web.logs].map(([address, log]) => [address, after(log.entries)])) };
  const log = web.logs.get(addressOf(host));
  return { host: addressOf(host), entries: after(log?.entries ?? []), maxConcurrent: log?.maxConcurrent ?? 0 };
}

/** Reads one host's request log from the control server (a site's base URL or address). */
export async function readHostLog(control: string, host: string, since = 0): Promise<HostLogEntry[]> {
  const query = new URLSearchParams({ host, ...(since > 0 ? { since: String(since) } : {}) });
  const res = await fetch(`${control}/__log?${query}`);
  return ((await res.json()) as { entries: HostLogEntry[] }).entries;
}

/** Every host's request log, by address. */
export async function readAllLogs(control: string, since = 0): Promise<Record<string, HostLogEntry[]>> {
  const res = await fetch(`${control}/__log${since > 0 ? `?since=${since}` : ''}`);
  return ((await res.json()) as { hosts: Record<string, HostLogEntry[]> }).hosts;
}

export interface SimWebProcess extends SimWebAddresses {
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Runs the simulated web in a child process (this file as a program); `extraModule` exports `extraHosts`. */
export async function spawnSimWeb(options: {
  hosts: number;
  seed?: number;
  extraModule?: string;
}): Promise<SimWebProcess> {
  const args = [new URL(import.meta.url).pathname, '--hosts', String(options.hosts)];
  if (options.seed !== undefined) args.push('--seed', String(options.seed));
  if (options.extraModule !== undefined) args.push('--extra', options.extraModule);
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const [first] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`the simulated web exited with ${String(code)}`);
    }),
  ])) as [string];
  const addresses = JSON.parse(first) as SimWebAddresses;
  return {
    ...addresses,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

async function main(): Promise<void> {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i === -1 ? undefined : process.argv[i + 1];
  };
  const extraPath = arg('extra');
  const extraHosts = extraPath
    ? ((await import(pathToFileURL(extraPath).href)) as { extraHosts: ExtraHost[] }).extraHosts
    : [];
  const web = await startSimWeb({ hosts: Number(arg('hosts') ?? 100), seed: Number(arg('seed') ?? 1), extraHosts });
  const { close, ...addresses } = web;
  process.stdout.write(`${JSON.stringify(addresses)}\n`);
  const stop = async () => {
    await close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop); // the parent went away
  process.stdin.resume();
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
