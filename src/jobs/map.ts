import { decodeBody } from '../domain/html/page';
import { MapEntries, type MapEntry, rankEntries } from '../domain/output/site-map';
import { ALLOW_ALL, parseRobots, type Robots } from '../domain/robots/robots';
import { isGzip, parseSitemapEntries } from '../domain/robots/sitemap';
import { hostKey, normalizeUrl } from '../domain/url/normalize';
import { compileScope, type Scope } from '../domain/url/scope';
import { limiter } from '../lib/limit';
import { sleep } from '../lib/sleep';
import { hostGateClient } from '../objects/host-gate-client';
import { type PipelineDeps, pipelineDeps } from '../page/deps';
import { gunzipCapped } from '../page/fetcher';
import { MAX_REDIRECT_HOPS, processTask } from '../page/process';
import { readSettings } from '../settings';
import type { Claim, Processed } from '../types';

/** Sitemap files read per map at most (an index's children included), and their bytes (decompressed) in all. */
const MAX_SITEMAP_FILES = 50;
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
/** Distinct URLs kept at most while a search is ranked (without a search, reading stops at `limit`). */
const MAX_COLLECTED = 200_000;
/** Origins whose robots.txt a map reads to leave out what they disallow (URLs of others are listed unchecked). */
const MAX_ROBOTS_ORIGINS = 20;
/** How long a map waits for a busy host in all before it answers with what it has. */
const MAX_WAIT_MS = 20_000;

export interface MapRequest {
  url: string;
  limit: number;
  search?: string | undefined;
  scope: Scope;
  sitemaps: boolean;
  links: boolean;
}

export interface MapResult {
  url: string;
  urls: MapEntry[];
  total: number;
  truncated: boolean;
  warnings: string[];
}

/**
 * robots.txt of each origin a map lists URLs of, as the host gates know it (one fetch per origin, shared with every
 * crawl): a URL a crawl would not fetch is left out of the map too. An origin whose robots.txt cannot be read is not
 * filtered (a crawl would try again later).
 */
class RobotsFilter {
  private readonly byOrigin = new Map<string, Promise<Robots | null>>();
  /** URLs left out. */
  disallowed = 0;
  constructor(
    private readonly hosts: Env['HOSTS'],
    private readonly userAgent: string,
  ) {}

  async allows(url: string): Promise<boolean> {
    const origin = new URL(url).origin;
    let robots = this.byOrigin.get(origin);
    if (!robots) {
      robots = this.byOrigin.size < MAX_ROBOTS_ORIGINS ? this.load(origin) : Promise.resolve(null);
      this.byOrigin.set(origin, robots);
    }
    const rules = await robots;
    if (!rules || rules.isAllowed(url, this.userAgent)) return true;
    this.disallowed += 1;
    return false;
  }

  private async load(origin: string): Promise<Robots | null> {
    const rules = await this.hosts
      .getByName(hostKey(origin))
      .robotsRules(origin)
      .catch(() => null);
    if (!rules || rules.kind === 'unreachable') return null;
    return rules.kind === 'rules' ? parseRobots(rules.body ?? '') : ALLOW_ALL;
  }
}

/** What one map is doing: its deps, the URLs found so far, what went wrong, and its budgets. */
interface MapRun {
  deps: PipelineDeps;
  robots: RobotsFilter;
  found: MapEntries;
  warnings: string[];
  deadline: number;
  files: number;
  bytes: number;
}

function depsFor(env: Env, request: MapRequest): PipelineDeps {
  const settings = { ...readSettings(env), maxAttempts: 1 };
  const inScope = compileScope(request.scope, [request.url]);
  const core = {
    crawlId: 'map',
    settings,
    gate: hostGateClient(env.HOSTS, settings),
    politeness: { minIntervalMs: 0 },
    policy: (url: string) => inScope(url),
    sitemapInScope: inScope,
    readSitemaps: request.sitemaps,
    extract: null,
  };
  return pipelineDeps(core, { limit: limiter(1) });
}

/**
 * The URLs of a site without fetching its pages: the start page (its links, and through the gate its robots.txt
 * Sitemap lines), then its sitemaps and /sitemap.xml, indexes followed, under the rules a crawl follows (private
 * addresses refused, robots.txt obeyed for every file fetched, the host's politeness slots taken, redirects checked).
 */
export async function mapSite(env: Env, request: MapRequest): Promise<MapResult> {
  const deps = depsFor(env, request);
  const run: MapRun = {
    deps,
    robots: new RobotsFilter(env.HOSTS, deps.settings.userAgent),
    found: new MapEntries(request.search ? Math.max(request.limit, MAX_COLLECTED) : request.limit),
    warnings: [],
    deadline: Date.now() + MAX_WAIT_MS,
    files: 0,
    bytes: 0,
  };
  const start = await readStart(run, request.url);
  run.found.add({ url: request.url, source: 'start', lastmod: null, title: start.title });
  if (request.sitemaps) await readSitemaps(run, start.sitemaps);
  if (request.links)
    for (const url of start.links)
      if (await run.robots.allows(url)) run.found.add({ url, source: 'links', lastmod: null });
  if (run.robots.disallowed > 0)
    run.warnings.push(`${run.robots.disallowed} URLs left out: robots.txt disallows them for this crawler`);
  const ranked = rankEntries(run.found.list(), request.search);
  return {
    url: request.url,
    urls: ranked.slice(0, request.limit),
    total: run.found.size,
    truncated: run.found.full || ranked.length > request.limit,
    warnings: run.warnings,
  };
}

/** One URL through the crawl's processing, tried again while its host is busy and the map's wait allows. */
async function attempt(run: MapRun, url: string, claim: Claim): Promise<Processed> {
  for (;;) {
    const processed = await processTask({ crawlId: 'map', url, depth: 0, hops: claim.hops }, claim, run.deps);
    const { outcome } = processed;
    const waitMs =
      (outcome.kind === 'throttled' || outcome.kind === 'retry' ? (outcome.retryDelaySeconds ?? 1) : 0) * 1000;
    if (waitMs === 0 || Date.now() + waitMs > run.deadline) return processed;
    await sleep(waitMs);
  }
}

const reasonOf = (processed: Processed) =>
  processed.outcome.kind === 'stored' ? 'stored' : (processed.outcome.reason ?? processed.outcome.kind);

/** The start page, redirects followed: its title, its links in scope, and the sitemaps its origin offers. */
async function readStart(
  run: MapRun,
  url: string,
): Promise<{ title: string | null; links: string[]; sitemaps: string[] }> {
  const sitemaps: string[] = [];
  let current = url;
  for (let hops = 0; hops <= MAX_REDIRECT_HOPS; hops++) {
    const processed = await attempt(run, current, { depth: 0, hops, kind: 'page', attempts: 1 });
    const offered =
      processed.outcome.kind === 'stored' || processed.outcome.kind === 'skipped'
        ? (processed.outcome.links ?? [])
        : [];
    sitemaps.push(...offered.filter((e) => e.kind === 'sitemap').map((e) => e.url));
    const pages = offered.filter((e) => e.kind !== 'sitemap').map((e) => e.url);
    const next = processed.outcome.kind === 'skipped' && processed.page?.redirectTo && pages[0];
    if (next) {
      current = next;
      continue;
    }
    if (processed.outcome.kind !== 'stored') run.warnings.push(`start page ${current}: ${reasonOf(processed)}`);
    return { title: processed.page?.title ?? null, links: pages, sitemaps };
  }
  run.warnings.push(`start page ${url}: more than ${MAX_REDIRECT_HOPS} redirects`);
  return { title: null, links: [], sitemaps };
}

/** Sitemaps read in the order found, an index's children after it, until the files, bytes or URLs run out. */
async function readSitemaps(run: MapRun, initial: string[]): Promise<void> {
  const queue = [...new Set(initial)].map((url) => ({ url, hops: 0 }));
  const seen = new Set(initial);
  while (queue.length > 0 && !run.found.full) {
    const { url, hops } = queue.shift() as { url: string; hops: number };
    if (run.files >= MAX_SITEMAP_FILES || run.bytes >= MAX_SITEMAP_BYTES) {
      run.warnings.push(`sitemaps: stopped at ${run.files} files, ${run.bytes} bytes; ${queue.length + 1} not read`);
      return;
    }
    run.files += 1;
    for (const next of await readSitemap(run, url, hops))
      if (!seen.has(next.url)) {
        seen.add(next.url);
        queue.push(next);
      }
  }
}

/** One sitemap file: its URLs in scope added with their lastmod; what to read next (an index's children, a redirect). */
async function readSitemap(run: MapRun, url: string, hops: number): Promise<{ url: string; hops: number }[]> {
  const processed = await attempt(run, url, { depth: 0, hops, kind: 'sitemap', attempts: 1 });
  const { outcome, page, body } = processed;
  if (outcome.kind === 'skipped' && page?.redirectTo && outcome.links?.[0])
    return [{ url: outcome.links[0].url, hops: hops + 1 }];
  if (outcome.kind !== 'stored' || !body || !page) {
    run.warnings.push(`sitemap ${url}: ${page && page.status >= 400 ? `http ${page.status}` : reasonOf(processed)}`);
    return [];
  }
  let xml: Uint8Array;
  try {
    xml = isGzip(body) ? await gunzipCapped(body, run.deps.settings.maxBodyBytes) : body;
  } catch (error) {
    run.warnings.push(`sitemap ${url}: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
  run.bytes += xml.byteLength;
  const sitemap = parseSitemapEntries(decodeBody(xml, page.contentType));
  if (sitemap.kind === 'index')
    return (outcome.links ?? []).filter((e) => e.kind === 'sitemap').map((e) => ({ url: e.url, hops: 0 }));
  for (const entry of sitemap.entries) {
    const loc = normalizeUrl(entry.loc);
    if (loc !== null && run.deps.sitemapInScope(loc) && (await run.robots.allows(loc)))
      run.found.add({ url: loc, source: 'sitemap', lastmod: entry.lastmod });
    if (run.found.full) break;
  }
  return [];
}
