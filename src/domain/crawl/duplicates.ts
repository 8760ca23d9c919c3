/**
 * Duplicates: each content of a crawl stored once (docs/crawling.md, "Duplicates"). A page that declares another URL
 * of the crawl canonical is a duplicate of it, and that URL is crawled instead; a page whose content hash another page
 * of the crawl had first is a duplicate of that page. These are the decisions; the crawl's coordinator holds what
 * they are decided against (the seen-set, and the first URL of each content hash).
 */
import { sha256Hex } from '../util/hash';
import type { DuplicateReason } from './url-life';

/**
 * What the crawl does with duplicates: skip (recorded as a duplicate, its content not stored again), similar (also
 * pages whose main text is almost the same: near-duplicates), or keep.
 */
export const DUPLICATE_MODES = ['skip', 'similar', 'keep'] as const;
export type DuplicateMode = (typeof DUPLICATE_MODES)[number];

/** Whether a crawl records duplicates (skip, similar) rather than keeping every URL. */
export const skipsDuplicates = (mode: DuplicateMode): boolean => mode !== 'keep';

/** Canonicals followed one after another at most (each is a hop, as a redirect is): a chain of them ends. */
export const MAX_CANONICAL_HOPS = 5;

/**
 * The URL a page's rel=canonical sends its content to, or null: the page is its own canonical (both are normalized),
 * names none, has followed too many hops already, or names a URL the crawl would not fetch (out of its scope, refused
 * by its patterns: `allowed`). A null canonical leaves the page as it is.
 */
export function canonicalTarget(
  pageUrl: string,
  canonical: string | null | undefined,
  hops: number,
  allowed: (url: string) => boolean,
): string | null {
  if (!canonical || canonical === pageUrl || hops >= MAX_CANONICAL_HOPS) return null;
  return allowed(canonical) ? canonical : null;
}

/** What a stored page is compared by for content duplicates (see contentKey). */
export interface ContentFacts {
  /** Of its extracted text and fields when the crawl extracts, else of its body. */
  contentHash?: string | null;
  wordCount?: number | null;
  title?: string | null;
  /** Its first <h1>, as extraction read it; none without extraction (the body's hash covers it). */
  heading?: string | null;
}

/**
 * The content key a stored page is compared by: one hash of its content hash, its title and its first heading, so
 * two pages are duplicates by content only when all three are the same (a page with a title or heading of its own
 * is a page of its own, whatever text it shares: a template, a notice). Null when it has nothing to compare (no
 * hash, or an extraction that found no words: every empty page has the hash of the empty text, and they are not one
 * page).
 */
export async function contentKey(page: ContentFacts): Promise<string | null> {
  if (!page.contentHash || page.wordCount === 0) return null;
  return sha256Hex(JSON.stringify([page.contentHash, page.title ?? null, page.heading ?? null]));
}

/** A stored page, as deduplication is asked about it: its URL, the canonical it names (see canonicalTarget), its key. */
export interface DedupeCandidate {
  url: string;
  canonical: string | null;
  /** contentKey of the page; null: not compared by content. */
  key: string | null;
  /** A recrawl's 304 (unchanged): it keeps its previous status, and only claims its key for the pages after it. */
  unchanged: boolean;
  /**
   * duplicates: "similar": the similarity sketch of its main text (domain/similarity), what near-duplicates are found
   * by, and the labels of its title and first heading (nameLabels), one of which a near-duplicate must share.
   */
  sketch?: string | null;
  labels?: string | null;
  /** Its template sketch (digits and its URL's words masked): what the trap rules compare pages of a pattern by. */
  template?: string | null;
}

/** What is known of a candidate's canonical when it is decided: not seen yet, still to be fetched, or how it ended. */
export type CanonicalState = 'unseen' | 'queued' | 'stored' | 'duplicate' | 'failed' | 'skipped';

/** A candidate's verdict: unique (store it), or a duplicate of `of`. */
export type Verdict =
  | { duplicate: false }
  | { duplicate: true; of: string; reason: DuplicateReason; similarity?: number };

const UNIQUE: Verdict = { duplicate: false };

/**
 * The canonical verdict: a duplicate of its canonical, unless that URL already ended without content (failed, skipped:
 * the page keeps its own) or is a duplicate itself (two pages naming each other: the second one keeps its content).
 */
export function canonicalVerdict(candidate: DedupeCandidate, state: CanonicalState): Verdict {
  if (candidate.canonical === null || candidate.unchanged) return UNIQUE;
  if (state === 'failed' || state === 'skipped' || state === 'duplicate') return UNIQUE;
  return { duplicate: true, of: candidate.canonical, reason: 'canonical' };
}

/** The content verdict: a duplicate of the URL that first claimed its key, if that is another URL (and it is fetched). */
export function contentVerdict(candidate: DedupeCandidate, first: string | null): Verdict {
  if (candidate.key === null || candidate.unchanged || first === null || first === candidate.url) return UNIQUE;
  return { duplicate: true, of: first, reason: 'content' };
}

/** 32-bit FNV-1a of a text, as 8 hex digits; '-' for none. */
function label(text: string | null | undefined): string {
  if (!text) return '-';
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** A page's title and first heading, hashed: what a near-duplicate must share with the page it names. */
export const nameLabels = (title: string | null | undefined, heading: string | null | undefined): string =>
  `${label(title)}.${label(heading)}`;

/**
 * Whether two pages of almost the same text are one page by their names: the same title and the same first heading,
 * as the content rule asks of exact copies (contentKey). Pages of one template with a name of their own (three
 * products, each out of stock) are three pages; a list under another sort order, or with a counter, keeps its name.
 */
export const sharesName = (a: string, b: string): boolean => a === b;
