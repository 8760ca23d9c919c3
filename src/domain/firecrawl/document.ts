import type { FirecrawlFormats } from './formats';

/**
 * A page as Firecrawl's document (the `data` of a scrape, the items of a crawl's status, a crawl.page webhook): the
 * formats asked for, and `metadata` with Firecrawl's names (title, description, language, og…, sourceURL, url,
 * statusCode, contentType, cacheState).
 */

/** What edgecrawl knows of a page, from a scrape's answer or a crawl's stored row and record. */
export interface PageFacts {
  /** The URL asked for (Firecrawl's sourceURL). */
  url: string;
  /** The URL the page was read at, after redirects. */
  finalUrl: string;
  status: number;
  contentType: string | null;
  /** The title on the page's row (a plain crawl's page has no record to read it from). */
  title?: string | null;
  /** ISO time the page was fetched from the site (a cached copy: when the copy was). */
  fetchedAt: string;
  /** Answered from a stored copy (the page cache), not fetched now. */
  cached: boolean;
  record: {
    metadata?: Record<string, unknown>;
    json?: unknown;
    summary?: string;
    links?: string[];
    images?: { src: string; alt: string }[];
    warnings: string[];
  } | null;
  outputs: { markdown?: string; html?: string };
  /** The body as fetched, when rawHtml is asked for. */
  rawHtml?: string | null;
  /** The screenshot (a data URL), when asked for. */
  screenshot?: string | null;
  changeTracking?: ChangeTracking | null;
  scrapeId?: string;
}

/** Firecrawl's changeTracking of a document. */
export interface ChangeTracking {
  previousScrapeAt: string | null;
  changeStatus: 'new' | 'same' | 'changed' | 'removed';
  visibility: 'visible' | 'hidden';
  diff?: { text: string };
}

export type FirecrawlDocument = Record<string, unknown> & { metadata: Record<string, unknown> };

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** og:* properties as Firecrawl's camelCase keys (ogTitle, ogSiteName…), and each as written (og:title). */
function ogFields(og: unknown): Record<string, string> {
  if (!og || typeof og !== 'object') return {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(og)) {
    if (typeof value !== 'string') continue;
    const camel = key.replace(/[:_](\w)/g, (_, c: string) => c.toUpperCase());
    out[`og${camel.charAt(0).toUpperCase()}${camel.slice(1)}`] = value;
    out[`og:${key}`] = value;
  }
  return out;
}

function twitterFields(twitter: unknown): Record<string, string> {
  if (!twitter || typeof twitter !== 'object') return {};
  return Object.fromEntries(
    Object.entries(twitter).flatMap(([k, v]) => (typeof v === 'string' ? [[`twitter:${k}`, v]] : [])),
  );
}

/** The page's metadata with Firecrawl's names. */
function metadataOf(page: PageFacts): Record<string, unknown> {
  const m = page.record?.metadata ?? {};
  const keywords = Array.isArray(m.keywords) ? m.keywords.filter((k) => typeof k === 'string').join(', ') : undefined;
  const named: Record<string, unknown> = {
    title: str(m.title) ?? str(m.headline) ?? str(page.title),
    description: str(m.description),
    language: str(m.language),
    keywords: keywords || undefined,
    author: str(m.author),
    publishedTime: str(m.publishedTime),
    modifiedTime: str(m.modifiedTime),
    canonical: str(m.canonical),
    numPages: typeof m.pages === 'number' ? m.pages : undefined,
    ...ogFields(m.og),
    ...twitterFields(m.twitter),
    sourceURL: page.url,
    url: page.finalUrl,
    statusCode: page.status,
    contentType: page.contentType ?? undefined,
    proxyUsed: 'basic',
    cacheState: page.cached ? 'hit' : 'miss',
    cachedAt: page.cached ? page.fetchedAt : undefined,
    scrapeId: page.scrapeId,
    error: page.status >= 400 ? `HTTP ${page.status}` : undefined,
  };
  return Object.fromEntries(Object.entries(named).filter(([, v]) => v !== undefined));
}

/** The document of a page, with the formats asked for (a format the page has nothing for is left out). */
export function firecrawlDocument(page: PageFacts, formats: FirecrawlFormats): FirecrawlDocument {
  const record = page.record;
  const doc: Record<string, unknown> = {};
  if (formats.markdown) doc.markdown = page.outputs.markdown ?? '';
  if (formats.html) doc.html = page.outputs.html ?? '';
  if (formats.rawHtml && page.rawHtml != null) doc.rawHtml = page.rawHtml;
  if (formats.links) doc.links = record?.links ?? [];
  if (formats.images) doc.images = [...new Set((record?.images ?? []).map((i) => i.src))];
  if (formats.screenshot && page.screenshot) doc.screenshot = page.screenshot;
  if (formats.summary && record?.summary !== undefined) doc.summary = record.summary;
  if (formats.json && record?.json !== undefined) doc[formats.json.key] = record.json;
  if (formats.changeTracking && page.changeTracking) doc.changeTracking = page.changeTracking;
  const warnings = record?.warnings ?? [];
  if (warnings.length > 0) doc.warning = warnings.join('; ');
  return { ...doc, metadata: metadataOf(page) };
}
