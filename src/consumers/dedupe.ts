import {
  contentKey,
  type DedupeCandidate,
  nameLabels,
  skipsDuplicates,
  type Verdict,
} from '../domain/crawl/duplicates';
import { trapsLearn } from '../domain/traps/rules';
import type { CrawlConfig, Processed } from '../types';
import type { CrawlStub, Finished } from './finished';

/**
 * A stored page of the chunk, as the crawl's object is asked about it (null: not one to ask of: a sitemap, no page):
 * what duplicates are decided by when the crawl skips them, and what the trap rules learn from.
 */
async function candidateOf(
  { task, processed }: Finished,
  { skips, similar }: { skips: boolean; similar: boolean },
): Promise<DedupeCandidate | null> {
  const { outcome, page, heading, sketches } = processed;
  if (task.kind === 'sitemap' || outcome.kind !== 'stored' || !page) return null;
  const key = skips ? await contentKey({ ...page, heading: heading ?? null }) : null;
  const canonical = skips ? (processed.canonical ?? null) : null;
  const sketch = similar ? (sketches?.text ?? null) : null;
  const labels = sketch === null ? null : nameLabels(page.title, heading);
  const template = sketches?.template ?? null;
  if (key === null && canonical === null && sketch === null && template === null) return null;
  return { url: outcome.url, canonical, key, unchanged: page.status === 304, sketch, labels, template };
}

/**
 * A page found a duplicate: its outcome says of what, its row keeps the small facts (status, type, title, hash) and
 * names that URL, and nothing of its content is written (no body, record, links or screenshot). Its links are still
 * followed.
 */
function asDuplicate(processed: Processed, verdict: Extract<Verdict, { duplicate: true }>): Processed {
  const { outcome, page, attempts } = processed;
  const links = 'links' in outcome && outcome.links ? { links: outcome.links } : {};
  return {
    outcome: {
      kind: 'duplicate',
      url: outcome.url,
      fetched: outcome.fetched,
      reason: verdict.reason,
      of: verdict.of,
      ...links,
    },
    attempts,
    ...(page
      ? {
          page: {
            ...page,
            change: null,
            recordAt: null,
            duplicateOf: verdict.of,
            duplicateReason: verdict.reason,
            similarity: verdict.similarity ?? null,
          },
        }
      : {}),
  };
}

/**
 * The chunk with its duplicates decided by the crawl's coordinator (one call for the chunk, see
 * CrawlCoordinator.dedupe) and turned into duplicates (asDuplicate). A crawl that keeps duplicates, or a chunk with
 * nothing to compare, makes no call. Throws when the coordinator cannot be reached.
 */
export async function dedupeChunk(chunk: Finished[], config: CrawlConfig, stub: CrawlStub): Promise<Finished[]> {
  const skips = skipsDuplicates(config.duplicates);
  if (!skips && !trapsLearn(config.traps)) return chunk;
  const modes = { skips, similar: config.duplicates === 'similar' };
  const candidates = await Promise.all(chunk.map((f) => candidateOf(f, modes)));
  const asked = candidates.flatMap((candidate, i) => (candidate ? [{ i, candidate }] : []));
  if (asked.length === 0) return chunk;
  const verdicts = await stub.dedupe(asked.map((a) => a.candidate));
  if (verdicts === null || !skips) return chunk;
  const out = [...chunk];
  asked.forEach(({ i }, n) => {
    const verdict = verdicts[n];
    const f = out[i];
    if (f && verdict?.duplicate) out[i] = { ...f, processed: asDuplicate(f.processed, verdict) };
  });
  return out;
}
