import { canonicalTarget, skipsDuplicates } from '../domain/crawl/duplicates';
import { extractPage, type PageExtract } from '../domain/extract';
import type { ExtractSpec } from '../domain/extract/spec-schema';
import { discoverLinks } from '../domain/html/discover';
import { decodeBody, isHtml } from '../domain/html/page';
import { visibleText } from '../domain/html/visible-text';
import { isPdf } from '../domain/pdf/document';
import { CONTENT_WORDS, renderNeed } from '../domain/render/need';
import { isGzip, parseSitemap } from '../domain/robots/sitemap';
import { pageSketches, sameTemplate } from '../domain/traps/compare';
import { isSoft404, readsAsNotFound } from '../domain/traps/soft-404';
import { normalizeUrl } from '../domain/url/normalize';
import { sha256Hex } from '../domain/util/hash';
import { encodeRecord } from '../storage/records';
import type { FrontierEntry, PageRecord, Processed } from '../types';
import { gunzipCapped } from './fetcher';
import { finish, followable, type Job, MAX_LINKS_RECORDED } from './job';
import { readPdfBody } from './read-pdf';
import { renderStep } from './rendering';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 200);

/**
 * A 2xx response to store, with what it offers: a sitemap's locations (more sitemaps for an index), an HTML page's
 * links and title (and its extraction record when the crawl extracts), a PDF's text, metadata and links (read-pdf.ts);
 * other content types are stored as they are. Returns the page as read (a new record; `page` is left as it was).
 * What cannot be read of a page is a property of the page: it is stored with a warning, never retried.
 */
export async function readBody(job: Job, page: PageRecord, body: Uint8Array): Promise<Processed> {
  if (job.claim.kind === 'sitemap') return readSitemap(job, page, body);
  if (isPdf(page.contentType, body)) return readPdfBody(job, page, body);
  if (!isHtml(page.contentType)) {
    const stored: PageRecord = { ...page, contentHash: await sha256Hex(body) };
    return finish(job, { kind: 'stored', fetched: true, links: [] }, { page: stored, links: [], body });
  }
  return readHtml(job, page, body);
}

/** The content type a rendered DOM is stored with. */
const RENDERED_TYPE = 'text/html; charset=utf-8';

/**
 * An HTML page: read as fetched, then, when the crawl renders it, read again as its rendered DOM (stored as UTF-8
 * HTML, extracted or its links found as a fetched page is, its HTML as fetched kept beside it).
 */
async function readHtml(job: Job, page: PageRecord, body: Uint8Array): Promise<Processed> {
  // What was said of the page before it was read stays said, whatever reading adds.
  const earlier = page.warnings ?? [];
  const plain = await readPage(job, page.contentType, body);
  const fetched: PageRecord = { ...page, ...plain.facts };
  const notFound = await soft404(job, fetched, plain);
  if (notFound) return notFound;
  const step = await renderStep(job, () => pageNeed(body, fetched.contentType, fetched.wordCount ?? null));
  if (step.kind === 'requeue') return step.processed;
  if (step.kind === 'failed')
    return finish(job, { kind: 'failed', fetched: true, reason: step.reason, code: step.code }, { page: fetched });
  if (step.kind === 'rendered') {
    const read = withWarnings(await readPage(job, RENDERED_TYPE, step.html), [...earlier, ...step.warnings]);
    const rendered: PageRecord = { ...fetched, contentType: RENDERED_TYPE, rendered: step.why, ...read.facts };
    const screenshot = step.screenshot ? { screenshot: step.screenshot } : {};
    return storedPage(job, rendered, read, { body: step.html, fetchedBody: body, ...screenshot });
  }
  const read = withWarnings(plain, [...earlier, ...(step.kind === 'unrendered' ? [step.warning] : [])]);
  return storedPage(job, { ...fetched, ...read.facts }, read, { body });
}

/** An HTML page stored as read, with the links it offers (linksToFollow). */
function storedPage(
  job: Job,
  page: PageRecord,
  read: Read,
  bodies: Pick<Processed, 'body' | 'fetchedBody' | 'screenshot'>,
): Processed {
  const { candidates, canonical } = linksToFollow(job, read);
  return finish(
    job,
    { kind: 'stored', fetched: true, links: candidates },
    {
      page,
      links: read.links.slice(0, MAX_LINKS_RECORDED),
      ...bodies,
      ...(read.record ? { record: read.record } : {}),
      ...(canonical ? { canonical } : {}),
      ...(read.heading ? { heading: read.heading } : {}),
      sketches: pageSketches(read.text, job.task.url),
    },
  );
}

/**
 * A page that reads as not found (its title, first heading or opening words), when the crawl tells soft 404s: what its
 * host answers for a made-up path decides (domain/traps/soft-404.ts). A soft 404 fails with the code `soft_404`, its
 * status kept on its errors row; nothing of it is stored (no page row, body or record) and its links are not followed.
 */
async function soft404(job: Job, page: PageRecord, read: Read): Promise<Processed | null> {
  const ask = job.deps.notFound;
  if (!ask || !readsAsNotFound({ title: page.title ?? null, heading: read.heading ?? null, text: read.text }))
    return null;
  const answer = await ask(job.task.url).catch(() => null);
  const mine = pageSketches(read.text, job.task.url).template;
  const same = answer?.sketch != null && mine !== null && sameTemplate(answer.sketch, mine);
  if (!isSoft404(answer, same)) return null;
  const reason = `soft 404: reads as the host's "not found" page (${(page.title ?? read.text).slice(0, 120)})`;
  return finish(job, { kind: 'failed', fetched: true, reason, code: 'soft_404' }, { httpStatus: page.status });
}

/**
 * The links a page offers (those the crawl's policy takes, one level deeper) and, when the crawl skips duplicates,
 * the URL its rel=canonical sends its content to (domain/crawl/duplicates.ts): offered first, at the page's own depth and
 * one hop further, as a redirect's target is.
 */
function linksToFollow(job: Job, read: Read): { candidates: FrontierEntry[]; canonical: string | null } {
  const { claim, deps, task } = job;
  const named = read.canonical === null || deps.cleanUrl === undefined ? read.canonical : deps.cleanUrl(read.canonical);
  const canonical = skipsDuplicates(deps.duplicates)
    ? canonicalTarget(task.url, named, claim.hops, (url) => deps.policy(url, claim.depth))
    : null;
  const candidates = followable(job, read.links).filter((entry) => entry.url !== canonical);
  if (canonical) candidates.unshift({ url: canonical, depth: claim.depth, hops: claim.hops + 1 });
  return { candidates, canonical };
}

/** An HTML body read as the crawl asks: extracted with its spec, or its links and title found. */
function readPage(job: Job, contentType: string | null, body: Uint8Array): Promise<Read> {
  const spec = job.deps.extract;
  return spec ? extracted(job, contentType, body, spec) : discovered(job, contentType, body);
}

/**
 * The page's warnings, all of them once: `others` (said before reading, and by rendering), then what reading said
 * (a failed extraction, links that could not be parsed), then its extraction record's; the record, when there is one,
 * encoded with them all.
 */
function withWarnings(read: Read, others: string[]): Read {
  const said = [...others, ...read.warnings];
  if (said.length === 0) return read;
  if (!read.result) return { ...read, facts: { ...read.facts, warnings: said } };
  const { facts, record } = extractFacts(read.result, said);
  return { ...read, record, facts: { ...read.facts, ...facts } };
}

/** Links and title by streaming the page (no DOM); a page the parser gives up on keeps no links and says why. */
async function streamLinks(job: Job, contentType: string | null, body: Uint8Array): Promise<Read> {
  try {
    const parsed = await discoverLinks(body, contentType, job.task.url);
    const text = visibleText(decodeBody(body, contentType));
    return { links: parsed.links, canonical: parsed.canonical, warnings: [], facts: { title: parsed.title }, text };
  } catch (error) {
    const warning = `links: the page could not be parsed (${messageOf(error)})`;
    return { links: [], canonical: null, warnings: [warning], facts: {}, text: '' };
  }
}

/**
 * What reading a page found: its links and canonical, what it says of the page beyond its extraction record
 * (`warnings`), the facts to set on its record row, its encoded extraction record when the crawl extracts, and its
 * first heading when it was parsed into a DOM.
 */
interface Read {
  links: string[];
  canonical: string | null;
  warnings: string[];
  facts: PageFacts;
  /** The page's main text (its visible text outside nav and chrome when not extracted): what sketches are made of. */
  text: string;
  heading?: string | null;
  record?: Uint8Array;
  result?: PageExtract;
}

/**
 * A page read without extraction: its links and title by streaming, its content hash of the body; in a recrawl, of
 * its main text (a token or a timestamp in the markup is no change), read in one parse with its links and title.
 */
async function discovered(job: Job, contentType: string | null, body: Uint8Array): Promise<Read> {
  const compare = job.deps.recrawl?.compare;
  if (compare) {
    const result = await extractPage(body, contentType, job.task.url, compare).catch(() => null);
    if (result?.links) {
      const { summary } = result;
      const facts = { title: summary.title, contentHash: result.record.contentHash };
      const { links, canonical, text } = result;
      return { links, canonical, warnings: [], heading: summary.heading, facts, text };
    }
  }
  const contentHash = await sha256Hex(body);
  const read = await streamLinks(job, contentType, body);
  return { ...read, facts: { contentHash, ...read.facts } };
}

/** What reading a page says of it on its record row (the rest of the row is the response's). */
type PageFacts = Partial<
  Pick<PageRecord, 'title' | 'description' | 'language' | 'wordCount' | 'contentHash' | 'warnings'>
>;

/**
 * What extraction says of a page on its record row, its warnings after `others` (what was said of the page apart
 * from extracting it), and the encoded record, with the same warnings, to store beside the body.
 */
export function extractFacts(
  result: PageExtract,
  others: readonly string[] = [],
): { facts: Required<PageFacts>; record: Uint8Array } {
  const record =
    others.length === 0 ? result.record : { ...result.record, warnings: [...others, ...result.record.warnings] };
  const { title, description, language } = result.summary;
  const { wordCount, contentHash, warnings } = record;
  return {
    facts: { title, description, language, wordCount, contentHash, warnings },
    record: encodeRecord(record, result.outputs),
  };
}

/** The page extracted as the crawl's spec asks; links from the same parse. */
async function extracted(job: Job, contentType: string | null, body: Uint8Array, spec: ExtractSpec): Promise<Read> {
  let result: PageExtract;
  try {
    result = await extractPage(body, contentType, job.task.url, spec);
  } catch (error) {
    const read = await discovered(job, contentType, body);
    return { ...read, warnings: [`extract: failed (${messageOf(error)})`, ...read.warnings] };
  }
  const { facts, record } = extractFacts(result);
  const { heading } = result.summary;
  const { text } = result;
  if (result.links !== null)
    return { links: result.links, canonical: result.canonical, warnings: [], heading, record, result, facts, text };
  // Not parsed into a DOM (too large): links by streaming, as without extraction (its title the stream's).
  const streamed = await streamLinks(job, contentType, body);
  return { ...streamed, heading, record, result, facts: { ...facts, ...streamed.facts }, text };
}

async function readSitemap(job: Job, page: PageRecord, body: Uint8Array): Promise<Processed> {
  const { claim, deps } = job;
  let xml: Uint8Array;
  try {
    xml = isGzip(body) ? await gunzipCapped(body, deps.settings.maxBodyBytes) : body;
  } catch (error) {
    return finish(
      job,
      { kind: 'failed', fetched: true, reason: `sitemap: ${messageOf(error)}`, code: 'sitemap_unreadable' },
      { page, body },
    );
  }
  const stored: PageRecord = { ...page, contentHash: await sha256Hex(body) };
  const sitemap = parseSitemap(decodeBody(xml, page.contentType));
  const links = sitemap.locs.map((loc) => normalizeUrl(loc)).filter((url): url is string => url !== null);
  const candidates: FrontierEntry[] =
    sitemap.kind === 'index'
      ? links
          .filter((url) => deps.sitemapInScope(url))
          .map((url) => ({ url, depth: claim.depth, hops: 0, kind: 'sitemap' as const }))
      : followable(job, links);
  return finish(
    job,
    { kind: 'stored', fetched: true, links: candidates },
    { page: stored, links: links.slice(0, MAX_LINKS_RECORDED), body },
  );
}

/** Why the plain HTML of a page does not hold it (domain/render/need.ts), or null: it does. */
export function pageNeed(body: Uint8Array, contentType: string | null, wordCount: number | null): string | null {
  // Most pages stop here: the words extraction found are the page's text (no decoding, no scan).
  if (wordCount !== null && wordCount >= CONTENT_WORDS) return null;
  const need = renderNeed({
    html: decodeBody(body, contentType),
    ...(wordCount === null ? {} : { contentWords: wordCount }),
  });
  return need.render ? need.reason : null;
}
