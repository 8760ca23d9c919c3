import type { Span } from '../types';
import { type FilteredWindow, type PageFilters, type TextCandidate, textCandidates } from './d1/page-filters';
import type { PageView } from './d1/page-views';
import { decodeRecord } from './records';
import { readSpan } from './spans';

/** Extraction records a text search reads at most per request. */
const TEXT_RECORDS = 200;

/** Records of one segment are read in one ranged read when they lie within this many bytes of each other. */
const RANGE_MAX_BYTES = 8 * 1024 * 1024;

/** One R2 read of a text search: a range of an object, and the spans (by index) it holds. */
export interface SegmentRead {
  at: Span;
  members: number[];
}

/**
 * The reads that fetch `spans`: one ranged read per segment (its records lie back to back), split where a range
 * would pass RANGE_MAX_BYTES; a span without an offset (a whole object) is read alone.
 */
export function segmentReads(spans: readonly Span[]): SegmentRead[] {
  const byKey = new Map<string, number[]>();
  const reads: SegmentRead[] = [];
  spans.forEach((span, i) => {
    if (span.offset === null || span.length === null) reads.push({ at: span, members: [i] });
    else byKey.set(span.key, [...(byKey.get(span.key) ?? []), i]);
  });
  for (const [key, members] of byKey) {
    const sorted = [...members].sort((a, b) => (spans[a]?.offset ?? 0) - (spans[b]?.offset ?? 0));
    let current: { start: number; end: number; members: number[] } | null = null;
    for (const i of sorted) {
      const start = spans[i]?.offset ?? 0;
      const end = start + (spans[i]?.length ?? 0);
      if (current && end - current.start <= RANGE_MAX_BYTES) {
        current.end = Math.max(current.end, end);
        current.members.push(i);
        continue;
      }
      if (current) reads.push(toRead(key, current));
      current = { start, end, members: [i] };
    }
    if (current) reads.push(toRead(key, current));
  }
  return reads;
}

const toRead = (key: string, r: { start: number; end: number; members: number[] }): SegmentRead => ({
  at: { key, offset: r.start, length: r.end - r.start },
  members: r.members,
});

/** The words of a text search, lower-cased (a word matches anywhere, as a substring, case-insensitively). */
const textWords = (words: readonly string[]): string[] => words.map((w) => w.toLowerCase());

/** True when every one of `words` (lower-cased) appears in `text`. */
export function holdsWords(text: string, words: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return words.every((word) => lower.includes(word));
}

/** The extracted text of each candidate (its record's text, else its markdown; '' when neither or unreadable). */
async function extractedTexts(bucket: R2Bucket, candidates: readonly TextCandidate[]): Promise<string[]> {
  const spans = candidates.map((c) => c.recordAt);
  const texts = candidates.map(() => '');
  await Promise.all(
    segmentReads(spans).map(async (read) => {
      const bytes = await readSpan(bucket, read.at);
      if (!bytes) return;
      for (const i of read.members) {
        const span = spans[i];
        if (!span) continue;
        const from = (span.offset ?? 0) - (read.at.offset ?? 0);
        const part = span.offset === null ? bytes : bytes.subarray(from, from + (span.length ?? 0));
        const record = decodeRecord(part);
        texts[i] = record?.outputs.text ?? record?.outputs.markdown ?? '';
      }
    }),
  );
  return texts;
}

/**
 * Pages after `afterUrl` that `filters` keep and whose extracted text holds every one of `words`: of the next
 * FILTER_WINDOW rows, the first TEXT_RECORDS with a record are read (grouped by segment), at most `limit` returned.
 */
export async function searchText(
  db: D1Database,
  bucket: R2Bucket,
  query: { crawlId: string; filters: PageFilters; words: readonly string[]; limit: number; afterUrl: string | null },
): Promise<FilteredWindow<PageView>> {
  const found = await textCandidates(db, query.crawlId, query.filters, TEXT_RECORDS, query.afterUrl);
  const texts = await extractedTexts(bucket, found.pages);
  const words = textWords(query.words);
  const matched = found.pages
    .filter((_, i) => holdsWords(texts[i] ?? '', words))
    .map(({ recordAt: _at, ...page }) => page);
  const searched = found.pages.length;
  if (matched.length >= query.limit) return { pages: matched.slice(0, query.limit), windowEnd: null, searched };
  const cut = found.pages.length === TEXT_RECORDS ? (found.pages.at(-1)?.url ?? null) : null;
  return { pages: matched, windowEnd: cut ?? found.windowEnd, searched };
}
