import { absoluteUrl, collapse, type DomDocument, selectAll } from './dom';

export interface Metadata {
  title: string | null;
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

/** <meta> values by lower-cased name or property (first value of each). */
function metaValues(document: DomDocument): Map<string, string> {
  const values = new Map<string, string>();
  for (const meta of selectAll(document, 'meta[content]')) {
    const content = collapse(meta.getAttribute('content'));
    if (!content) continue;
    for (const key of [meta.getAttribute('property'), meta.getAttribute('name'), meta.getAttribute('itemprop'), meta.getAttribute('http-equiv')]) {
      const name = key?.trim().toLowerCase();
      if (name && !values.has(name)) values.set(name, content);
    }
  }
  return values;
}

function prefixed(values: Map<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of values) if (key.startsWith(prefix) && key.length > prefix.length) out[key.slice(prefix.length)] = value;
  return out;
}

/** The first non-empty of the candidates. */
const first = (...candidates: (string | null | undefined)[]): string | null => candidates.map((c) => collapse(c)).find((c) => c !== '') ?? null;

/** Facts JSON-LD gives about the page (an Article's author and dates), used where the markup says nothing. */
export interface LinkedFacts {
  author?: string | null;
  publishedTime?: string | null;
  modifiedTime?: string | null;
  headline?: string | null;
}

function authorOf(document: DomDocument, values: Map<string, string>, facts: LinkedFacts): string | null {
  const byRel = document.querySelector('[rel~="author"]');
  const byItemprop = document.querySelector('[itemprop~="author"]');
  const linkText = byRel && !byRel.getAttribute('href')?.startsWith('http') ? byRel.textContent : null;
  return first(
    values.get('author'),
    values.get('article:author'),
    values.get('dc.creator'),
    facts.author,
    linkText,
    byItemprop?.textContent,
    values.get('twitter:creator'),
  );
}

/** The page's metadata from its <head> (and JSON-LD facts where the head says nothing); URLs absolute. */
export function readMetadata(document: DomDocument, baseUrl: string, facts: LinkedFacts = {}): Metadata {
  const values = metaValues(document);
  const titleElement = document.querySelector('title');
  const canonical = selectAll(document, 'link[rel][href]').find((l) => /(^|\s)canonical(\s|$)/i.test(l.getAttribute('rel') ?? ''));
  const keywords = values.get('keywords');
  const time = (...keys: string[]) => first(...keys.map((k) => values.get(k)));
  const publishedElement = document.querySelector('time[itemprop~="datePublished"], [itemprop~="datePublished"][content]');
  return {
    title: first(titleElement?.textContent, values.get('og:title'), values.get('twitter:title'), facts.headline, document.querySelector('h1')?.textContent),
    description: first(values.get('description'), values.get('og:description'), values.get('twitter:description'), values.get('dc.description')),
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
    modifiedTime: time('article:modified_time', 'og:updated_time', 'datemodified', 'last-modified') ?? first(facts.modifiedTime),
    siteName: first(values.get('og:site_name'), values.get('application-name'), values.get('twitter:site')),
    image: absoluteUrl(values.get('og:image') ?? values.get('og:image:url') ?? values.get('twitter:image') ?? values.get('twitter:image:src'), baseUrl),
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
