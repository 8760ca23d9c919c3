import { absoluteUrl, collapse, type DomDocument, selectAll } from './dom';
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

/** The title the page declares for its content (JSON-LD, Dublin Core, Open Graph, Twitter), else its cleaned <title>. */
function headlineOf(document: DomDocument, values: Map<string, string>, facts: LinkedFacts): string | null {
  const declared = first(
    facts.headline,
    values.get('dc:title'),
    values.get('dcterm:title'),
    values.get('og:title'),
    values.get('twitter:title'),
  );
  if (declared) return declared;
  const raw = short(document.querySelector('title')?.textContent);
  const headings = selectAll(document, 'h1').map((h) => collapse(h.textContent));
  return raw ? cleanTitle(raw, headings) : (headings[0] ?? null);
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
  const headline = headlineOf(document, values, facts);
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
