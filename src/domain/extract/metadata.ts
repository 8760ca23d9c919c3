import { absoluteUrl, collapse, type DomDocument, type DomElement, selectAll } from './dom';
import { PAGE_LIMITS } from './spec';

export interface Metadata {
  /** The document's <title> as written (whitespace collapsed), as every crawler and SEO tool reports it. */
  title: string | null;
  /** The content's own title: the one the page declares (JSON-LD, Dublin Core, Open Graph), else <title> cleaned. */
  headline: string | null;
  description: string | null;
  language: string | null;
  canonical: string | null;
  author: string | null;
  publishedTime: string | null;
  modifiedTime: string | null;
  siteName: string | null;
  image: string | null;
  keywords: string[] | null;
  /** Every og:* property, keyed without its prefix (the first value of a repeated one). */
  og: Record<string, string>;
  /** Every twitter:* property, keyed without its prefix. */
  twitter: Record<string, string>;
}

/** Text collapsed and cut at PAGE_LIMITS.metaChars (a page may declare a title or description of megabytes). */
const short = (text: string | null | undefined) =>
  collapse(text?.slice(0, PAGE_LIMITS.metaChars * 4)).slice(0, PAGE_LIMITS.metaChars);

/** <meta> values by lower-cased name or property (first value of each). */
function metaValues(document: DomDocument): Map<string, string> {
  const values = new Map<string, string>();
  for (const meta of selectAll(document, 'meta[content]').slice(0, PAGE_LIMITS.metaTags)) {
    const content = short(meta.getAttribute('content'));
    if (!content) continue;
    // property may list several names ("dc:title og:title").
    const keys = [
      meta.getAttribute('property'),
      meta.getAttribute('name'),
      meta.getAttribute('itemprop'),
      meta.getAttribute('http-equiv'),
    ];
    for (const name of keys.flatMap((k) => k?.trim().toLowerCase().split(/\s+/) ?? []))
      if (name && !values.has(name)) values.set(name, content);
  }
  return values;
}

function prefixed(values: Map<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of values)
    if (key.startsWith(prefix) && key.length > prefix.length) out[key.slice(prefix.length)] = value;
  return out;
}

/** The first non-empty of the candidates. */
const first = (...candidates: (string | null | undefined)[]): string | null =>
  candidates.map((c) => short(c)).find((c) => c !== '') ?? null;

/** Facts JSON-LD gives about the page (an Article's author and dates), used where the markup says nothing. */
export interface LinkedFacts {
  author?: string | null;
  publishedTime?: string | null;
  modifiedTime?: string | null;
  headline?: string | null;
}

const BYLINE = /(^|[\s_-])(byline|author|dateline|writtenby|p-author)([\s_-]|$)/i;

/** A byline in the page: an element marked as the author, short enough to be a name. */
function bylineOf(document: DomDocument): string | null {
  for (const element of selectAll(document, '[rel~="author"], [itemprop~="author"], [class], [id]')) {
    const marks = `${element.getAttribute('rel') ?? ''} ${element.getAttribute('itemprop') ?? ''}`;
    const names = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
    if (!/author/i.test(marks) && !BYLINE.test(names)) continue;
    if (['body', 'html', 'meta', 'link'].includes(element.localName)) continue;
    const text = collapse(element.textContent).replace(/^by\s+/i, '');
    if (text.length > 0 && text.length < 100) return text;
  }
  return null;
}

function authorOf(document: DomDocument, values: Map<string, string>, facts: LinkedFacts): string | null {
  const meta = first(
    values.get('author'),
    values.get('article:author'),
    values.get('dc.creator'),
    values.get('dc:creator'),
    facts.author,
  );
  return meta ?? first(bylineOf(document), values.get('twitter:creator'));
}

const SEPARATORS = /\s[|\-–—\\/>»]\s/;
const words = (text: string) => text.split(/\s+/).filter((w) => w !== '').length;

/**
 * A <title> without the site's name around it, as Readability cleans it: "Story | Site" -> "Story", unless what
 * is left is too short to be a title; "Site: Story" -> "Story" unless a heading says otherwise.
 */
function cleanTitle(raw: string, headings: string[]): string {
  const original = collapse(raw);
  let title = original;
  let hierarchical = false;
  if (SEPARATORS.test(title)) {
    hierarchical = /\s[\\/>»]\s/.test(title);
    title = original.replace(/(.*)\s[|\-–—\\/>»]\s.*/, '$1');
    if (words(title) < 3) title = original.replace(/^[^|\-–—\\/>»]*[|\-–—\\/>»]\s(.*)/, '$1');
  } else if (title.includes(': ') && !headings.includes(title)) {
    title = original.slice(original.lastIndexOf(': ') + 2);
    if (words(title) < 3) title = original.slice(original.indexOf(': ') + 2);
    else if (words(original.slice(0, original.indexOf(': '))) > 5) title = original;
  } else if ((title.length > 150 || title.length < 15) && headings.length === 1) title = headings[0] ?? title;
  title = collapse(title);
  if (words(title) <= 4 && (!hierarchical || words(title) !== words(original.replace(SEPARATORS, ' ')) - 1))
    title = original;
  return title;
}

/**
 * A separator between a page's title and its site's name: "Story | Site", "Story — Site docs", "Site: Story",
 * "NEWS|Story". Dashes and slashes only between spaces ("Privatkredit-Zinsen" is one word).
 */
const SEPARATOR = String.raw`(?:\s+[-–—·•»>/\\|~]\s+|\s*[|·•»]\s*|:\s+)`;
const TRAILING_SEPARATOR = new RegExp(`${SEPARATOR}$`);
const LEADING_SEPARATOR = new RegExp(`^${SEPARATOR}`);
/** Permalink signs generators put after a heading's text. */
const PERMALINK_SIGN = /\s*[¶#§🔗]$/u;

/**
 * The title without a site's name at its end or start ("Story | Site" -> "Story"), when one of `sites` is there and
 * what is left is not much shorter than it (a site's name is shorter than a headline: an `og:site_name` that holds
 * the page's title is not taken for one).
 */
function withoutSite(title: string, sites: string[]): string {
  for (const site of sites) {
    if (site === '' || site === title) continue;
    const rest = title.endsWith(site)
      ? title.slice(0, -site.length).replace(TRAILING_SEPARATOR, '')
      : title.startsWith(site)
        ? title.slice(site.length).replace(LEADING_SEPARATOR, '')
        : title;
    if (rest !== title && rest.length + site.length < title.length && rest.length * 2 >= site.length) return rest;
  }
  return title;
}

/**
 * The h1 that the <title> starts with, a site's name after it ("Built-in Functions — Python 3.12 documentation" and
 * the h1 "Built-in Functions¶"), or that is the whole <title>: the page's own headline. An h1 at the end of the
 * <title> is more often the site's name ("Tragwerksplanung | RS Ingenieure"): the cleaned <title> decides then.
 */
function titledHeading(title: string, headings: string[]): string | null {
  for (const heading of headings.map((h) => h.replace(PERMALINK_SIGN, '')))
    if (
      heading !== '' &&
      (heading === title || (title.startsWith(heading) && LEADING_SEPARATOR.test(title.slice(heading.length))))
    )
      return heading;
  return null;
}

/** An h1 that is a link to the site's home page, and nothing else: the site's name in its header, not a headline. */
function homeLink(h1: DomElement, baseUrl: string): boolean {
  const links = selectAll(h1, 'a[href]');
  const link = links[0];
  if (links.length !== 1 || !link || collapse(link.textContent) !== collapse(h1.textContent)) return false;
  const url = absoluteUrl(link.getAttribute('href'), baseUrl);
  return url !== null && new URL(url).pathname === '/' && new URL(url).search === '';
}

/**
 * The content's own title: the one the page declares (JSON-LD, Dublin Core, Open Graph, Twitter), else the h1 its
 * <title> is made of, else the <title> cleaned (as Readability cleans it). A site's name at either end is dropped:
 * `og:site_name`, `application-name`, or an h1 that links to the home page (a logo's text).
 */
function headlineOf(
  document: DomDocument,
  values: Map<string, string>,
  facts: LinkedFacts,
  baseUrl: string,
): string | null {
  const h1s = selectAll(document, 'h1');
  const logos = h1s.filter((h1) => homeLink(h1, baseUrl)).map((h1) => collapse(h1.textContent));
  const sites = [values.get('og:site_name'), values.get('application-name')].map((s) => short(s)).concat(logos);
  const declared = first(
    facts.headline,
    values.get('dc:title'),
    values.get('dcterm:title'),
    values.get('og:title'),
    values.get('twitter:title'),
  );
  if (declared) return withoutSite(declared, sites);
  const raw = short(document.querySelector('title')?.textContent);
  const headings = h1s.map((h) => collapse(h.textContent));
  if (!raw) return headings[0] ?? null;
  // The part of the <title> that is the page's: the part that is not a site's name.
  const own = withoutSite(raw, sites);
  const titled = titledHeading(
    own,
    headings.filter((h) => !logos.includes(h)),
  );
  return titled ?? cleanTitle(own, headings);
}

/** The page's metadata from its <head> (and JSON-LD facts where the head says nothing); URLs absolute. */
export function readMetadata(document: DomDocument, baseUrl: string, facts: LinkedFacts = {}): Metadata {
  const values = metaValues(document);
  const canonical = selectAll(document, 'link[rel][href]').find((l) =>
    /(^|\s)canonical(\s|$)/i.test(l.getAttribute('rel') ?? ''),
  );
  const keywords = values.get('keywords');
  const time = (...keys: string[]) => first(...keys.map((k) => values.get(k)));
  const publishedElement = document.querySelector(
    'time[itemprop~="datePublished"], [itemprop~="datePublished"][content]',
  );
  const headline = headlineOf(document, values, facts, baseUrl);
  return {
    title: first(document.querySelector('title')?.textContent) ?? headline,
    headline,
    description: first(
      values.get('description'),
      values.get('og:description'),
      values.get('twitter:description'),
      values.get('dc.description'),
    ),
    language: first(
      document.documentElement.getAttribute('lang'),
      document.documentElement.getAttribute('xml:lang'),
      values.get('content-language'),
      values.get('og:locale'),
    ),
    canonical: absoluteUrl(canonical?.getAttribute('href'), baseUrl) ?? absoluteUrl(values.get('og:url'), baseUrl),
    author: authorOf(document, values, facts),
    publishedTime:
      time('article:published_time', 'datepublished', 'date', 'pubdate', 'publish_date', 'dc.date', 'dc.date.issued') ??
      first(publishedElement?.getAttribute('datetime'), publishedElement?.getAttribute('content'), facts.publishedTime),
    modifiedTime:
      time('article:modified_time', 'og:updated_time', 'datemodified', 'last-modified') ?? first(facts.modifiedTime),
    siteName: first(values.get('og:site_name'), values.get('application-name'), values.get('twitter:site')),
    image: absoluteUrl(
      values.get('og:image') ??
        values.get('og:image:url') ??
        values.get('twitter:image') ??
        values.get('twitter:image:src'),
      baseUrl,
    ),
    keywords: keywords
      ? keywords
          .split(',')
          .map((k) => k.trim())
          .filter((k) => k !== '')
      : null,
    og: prefixed(values, 'og:'),
    twitter: prefixed(values, 'twitter:'),
  };
}
