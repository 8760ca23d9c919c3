/**
 * What the page pipeline (process.ts) needs, in one place: a core every run gives (a crawl's consumer, a scrape, a
 * map), and parts a run may add; pipelineDeps() turns a part left out into "off". A leaf of src/page: it imports none
 * of the pipeline's steps, so they can all import it.
 */
import type { DuplicateMode } from '../domain/crawl/duplicates';
import type { Access } from '../domain/credentials/access';
import type { Cookie } from '../domain/credentials/fields';
import type { ExtractSpec } from '../domain/extract/spec-schema';
import type { Action, RenderOptions } from '../domain/render/rules';
import type { NotFoundAnswer } from '../domain/traps/soft-404';
import type { LinkPolicy } from '../domain/url/link-policy';
import type { Limit } from '../lib/limit';
import type { Settings } from '../settings';
import type { PreviousVersion } from '../storage/d1/previous-versions';
import type { BusyClock, InvocationBrowser } from './browsers';
import { ALONE, type Connections } from './connections';
import type { CrawlPoliteness, Gate } from './gate';

/** What every run of the pipeline gives. */
export interface PipelineCore {
  crawlId: string;
  settings: Settings;
  /** robots.txt and the host's rate limiter. */
  gate: Gate;
  /** The crawl's own politeness towards each host. */
  politeness: CrawlPoliteness;
  /** Which of a page's links the crawl follows, at a depth. */
  policy: LinkPolicy;
  /** Whether a sitemap URL belongs to the crawl (scope only). */
  sitemapInScope: (url: string) => boolean;
  /** The crawl reads sitemaps: its seeds look up their robots.txt Sitemap lines and /sitemap.xml. */
  readSitemaps: boolean;
  /** false: a page's links are not followed (only the seeds and their sitemaps' pages are crawled). Default: true. */
  followLinks?: boolean;
  /** What each HTML page is extracted into; null: links and title only. */
  extract: ExtractSpec | null;
  /** What is done to every URL the crawl finds before it is checked: session ids stripped (compileUrlCleaner). */
  cleanUrl?: (url: string) => string;
}

/** What a run may add; pipelineDeps() says what each one left out is. */
export interface PipelineParts {
  /** A recrawl: what the previous crawl fetched; null: a crawl of its own. */
  recrawl: Recrawl | null;
  /** The page cache (maxAge): a URL's stored copy fresh enough to serve instead of a request; null: every URL fetched. */
  cache: ((url: string) => Promise<CachedBody | null>) | null;
  /** Rendering pages in a browser (rendering.ts); null: pages are stored as fetched. */
  render: RenderDeps | null;
  /** What the crawl does with duplicates (domain/crawl/duplicates.ts). */
  duplicates: DuplicateMode;
  /** The invocation's cap on requests in flight (settings.fetchConcurrency). */
  limit: Limit;
  /** The invocation's connections (at most six waiting for headers; see Connections). */
  connections: Connections;
  /**
   * Asked right before a request goes out: a reason to hand the URL back unfetched (the crawl was cancelled, the
   * claim's lease would run out before the fetch could end), or null to go.
   */
  beforeFetch: () => Promise<string | null>;
  /**
   * What requests to the credential hosts carry (domain/credentials/access.ts): a crawl's opened secrets, a scrape's
   * own; null: nothing. A string: the crawl has credentials that could not be opened, why (every URL fails with it).
   */
  access: Access | string | null;
  /**
   * A logged-in crawl's cookie jar (consumers/cookie-jar.ts): what its credential hosts set while it runs, sent on its
   * later requests to them; null: none (no credentials, a scrape, a map).
   */
  jar: CookieJar | null;
  /**
   * What a page's host answers for a made-up path (soft 404s: domain/traps/soft-404.ts), asked of its gate only for a
   * page that reads as not found; null: soft 404s are not told (a scrape, a map, a crawl with the rule off).
   */
  notFound: ((url: string) => Promise<NotFoundAnswer | null>) | null;
}

/** The pipeline's dependencies, every part present (off or on). */
export type PipelineDeps = Readonly<PipelineCore & PipelineParts>;

/** The one way the pipeline's dependencies are made: the core, with the parts the run adds (the others off). */
export function pipelineDeps(core: PipelineCore, parts: Partial<PipelineParts> = {}): PipelineDeps {
  return {
    ...core,
    recrawl: parts.recrawl ?? null,
    cache: parts.cache ?? null,
    render: parts.render ?? null,
    duplicates: parts.duplicates ?? 'keep',
    limit: parts.limit ?? ((task) => task()),
    connections: parts.connections ?? ALONE,
    beforeFetch: parts.beforeFetch ?? (async () => null),
    access: parts.access ?? null,
    jar: parts.jar ?? null,
    notFound: parts.notFound ?? null,
  };
}

/** The cookies the credential hosts set during a crawl, kept by the crawl (domain/credentials/cookie-jar.ts). */
export interface CookieJar {
  /** The jar's cookies a request to `url` carries (none off the credential hosts). */
  cookiesFor(url: string): Promise<Cookie[]>;
  /** Keeps the cookies a response to `url` set (its Set-Cookie headers), if `url` is on a credential host. */
  keep(url: string, setCookies: readonly string[]): Promise<void>;
}

/** A recrawl: what the previous crawl fetched (to compare, and for conditional GETs), empty for a first run. */
export interface Recrawl {
  previous: Map<string, PreviousVersion>;
  /**
   * Requests are conditional on the previous crawl's validators (a schedule's runs): a 304 keeps pointing at its
   * body. A crawl given a previousCrawlId fetches in full, so it holds no reference into the other crawl's data.
   */
  conditional: boolean;
  /** A recrawl without extraction: pages are hashed by what this spec reads of them (their main text), not bytes. */
  compare: ExtractSpec | null;
  /** The previous version hashed as this crawl hashes pages, when the hashes differ (see previousHash). */
  rehash: ((url: string, previous: PreviousVersion) => Promise<string | null>) | null;
  /** The previous version's links (a 304's, followed again). */
  links: (url: string, previous: PreviousVersion) => Promise<string[]>;
}

/** A page's stored copy the cache serves: the response it was fetched with, and the body to read it from. */
export interface CachedBody {
  /** The crawl whose copy it is ('scrape': a scrape's). */
  crawlId: string;
  status: number;
  contentType: string | null;
  fetchedAt: number;
  etag: string | null;
  lastModified: string | null;
  /** Why the body is a rendered DOM; null: it is the HTML as fetched. */
  rendered: string | null;
  body: Uint8Array;
  /** A rendered DOM's HTML as fetched (copied with it, so the page keeps both, as a rendered page does); else null. */
  fetchedBody: Uint8Array | null;
}

/** What rendering needs of the consumer: the crawl's options, the invocation's browser, and the crawl's budget. */
export interface RenderDeps {
  options: RenderOptions;
  /** Extraction formats that need a browser (a screenshot). */
  formats?: readonly string[];
  /** Only for /v1/scrape. */
  actions?: Action[];
  browser: InvocationBrowser;
  /** The crawl's browser time in this invocation. */
  clock: BusyClock;
  /** One render of the crawl's maxRenders: false once they are spent. */
  take: () => Promise<boolean>;
  /** Asked before a render starts: a reason to hand the URL back (the claim's lease would not outlast it), or null. */
  guard?: () => Promise<string | null>;
}
