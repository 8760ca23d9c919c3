import {
  type CanonicalState,
  canonicalVerdict,
  contentVerdict,
  type DedupeCandidate,
  sharesName,
  type Verdict,
} from '../../domain/crawl/duplicates';
import { type FrontierEntry, type Outcome, UrlState } from '../../domain/crawl/url-life';
import { ContentClaims, type KeyClaim } from './content-claims';
import type { Ledger } from './ledger';
import { nearValue } from './near-index';
import type { SeenSet } from './seen-set';

/** What a candidate's claim keeps for near-duplicates: its sketch and name, when the crawl looks for them. */
const nearOf = (c: DedupeCandidate): string | null => (c.sketch && c.labels ? nearValue(c.sketch, c.labels) : null);

const STATES: Record<number, CanonicalState> = {
  [UrlState.Queued]: 'queued',
  [UrlState.Stored]: 'stored',
  [UrlState.Failed]: 'failed',
  [UrlState.Skipped]: 'skipped',
  [UrlState.Duplicate]: 'duplicate',
};

/**
 * Which stored pages of the crawl are duplicates (domain/crawl/duplicates.ts), decided here because the coordinator runs one
 * call at a time: of racing consumers with the same content, exactly one URL claims its key first. The first URL of
 * each content key is kept by ContentClaims (one row written per call that claims keys, not per key); the pages
 * decided duplicates of their canonical whose outcome is not recorded yet are kept in memory, so two pages naming
 * each other do not both end duplicates.
 */
export class Duplicates {
  /** URL → its canonical, decided duplicates and not yet recorded (see settled). */
  private readonly pending = new Map<string, string>();
  private readonly claims: ContentClaims;

  constructor(
    private readonly seen: SeenSet,
    private readonly ledger: Ledger,
  ) {
    this.claims = new ContentClaims(ledger);
  }

  /** A verdict per candidate, in order (a candidate may be a duplicate of one before it in the same call). */
  decide(candidates: readonly DedupeCandidate[]): Verdict[] {
    const canonicals = candidates.flatMap((c) => (c.canonical === null ? [] : [c.canonical]));
    const rows = canonicals.length > 0 ? this.seen.find(canonicals) : new Map();
    const verdicts = candidates.map((candidate) => {
      if (candidate.canonical === null) return null;
      const row = rows.get(candidate.canonical);
      const state: CanonicalState = this.pending.has(candidate.canonical)
        ? 'duplicate'
        : row
          ? (STATES[row.state] ?? 'queued')
          : 'unseen';
      const verdict = canonicalVerdict(candidate, state);
      if (verdict.duplicate) this.pending.set(candidate.url, candidate.canonical);
      return verdict.duplicate ? verdict : null;
    });
    const asked = candidates.flatMap((c, i) =>
      verdicts[i] === null && c.key !== null ? [{ key: c.key, url: c.url, near: nearOf(c) }] : [],
    );
    const firsts = this.holders(asked);
    const decided = candidates.map(
      (c, i) => verdicts[i] ?? contentVerdict(c, c.key === null ? null : (firsts.get(c.key) ?? null)),
    );
    return this.nearDuplicates(candidates, decided);
  }

  /**
   * duplicates: "similar": a candidate still unique whose text's sketch is near a page that first had its content (and
   * still has it: not ended without content, not a duplicate itself) is a duplicate of the nearest such page, with
   * its similarity. A candidate with no sketch (the crawl does not look for near-duplicates) keeps its verdict.
   */
  private nearDuplicates(candidates: readonly DedupeCandidate[], verdicts: Verdict[]): Verdict[] {
    const asking = candidates.flatMap((c, i) =>
      c.sketch && c.labels && !c.unchanged && !verdicts[i]?.duplicate
        ? [{ i, sketch: c.sketch, url: c.url, labels: c.labels }]
        : [],
    );
    if (asking.length === 0) return verdicts;
    const near = asking.map((a) =>
      this.claims.near.near(a.sketch).filter((n) => n.url !== a.url && sharesName(n.labels, a.labels)),
    );
    const others = [...new Set(near.flat().map((n) => n.url))];
    const rows = others.length > 0 ? this.seen.find(others) : new Map();
    const out = [...verdicts];
    const gone = new Set(candidates.flatMap((c, i) => (out[i]?.duplicate ? [c.url] : [])));
    // A page another one of the call was found a duplicate of keeps its content: no chain of near-duplicates.
    const keepers = new Set<string>();
    asking.forEach(({ i, url }, k) => {
      if (keepers.has(url)) return;
      const kept = near[k]?.find((n) => {
        const state = rows.get(n.url)?.state;
        const usable = state === undefined || state === UrlState.Queued || state === UrlState.Stored;
        return usable && !gone.has(n.url) && !this.pending.has(n.url);
      });
      if (!kept) return;
      out[i] = { duplicate: true, of: kept.url, reason: 'similar', similarity: 1 - kept.distance / 64 };
      gone.add(url);
      keepers.add(kept.url);
    });
    return out;
  }

  /**
   * The URL that holds each key asked (ContentClaims: the first to claim it), unless that URL ended without content
   * (failed or skipped: a page that was given back, then failed for good): then the key's holder is its reclaim, the
   * first URL of the call to ask for it once no holder has content (one `reclaims` row per such key).
   */
  private holders(asked: readonly KeyClaim[]): Map<string, string> {
    const firsts = this.claims.claim(asked);
    const mine = new Set(asked.map((a) => a.url));
    const lost = this.endedWithout([...new Set([...firsts.values()].filter((url) => !mine.has(url)))]);
    const lostKeys = [...firsts].flatMap(([key, url]) => (lost.has(url) ? [key] : []));
    if (lostKeys.length === 0) return firsts;
    const reclaimed = new Map(
      this.ledger
        .exec<{ hash: string; url: string }>(
          'SELECT hash, url FROM reclaims WHERE hash IN (SELECT value FROM json_each(?))',
          JSON.stringify(lostKeys),
        )
        .map((r) => [r.hash, r.url]),
    );
    const gone = this.endedWithout([...reclaimed.values()]);
    const fresh: [string, string][] = [];
    for (const key of lostKeys) {
      const holder = reclaimed.get(key);
      if (holder !== undefined && !gone.has(holder)) firsts.set(key, holder);
      else {
        const url = asked.find((a) => a.key === key)?.url;
        if (url === undefined) continue;
        firsts.set(key, url);
        fresh.push([key, url]);
      }
    }
    if (fresh.length > 0)
      this.ledger.exec(
        `INSERT INTO reclaims (hash, url) SELECT value->>0, value->>1 FROM json_each(?) WHERE true
         ON CONFLICT (hash) DO UPDATE SET url = excluded.url`,
        JSON.stringify(fresh),
      );
    return firsts;
  }

  /** Of these URLs, those that ended without content: failed or skipped. */
  private endedWithout(urls: readonly string[]): Set<string> {
    if (urls.length === 0) return new Set();
    return new Set(
      [...this.seen.find(urls).values()]
        .filter((r) => r.state === UrlState.Failed || r.state === UrlState.Skipped)
        .map((r) => r.url),
    );
  }

  /**
   * After outcomes are recorded: each duplicate is kept under the URL its content is stored under (one row), and the
   * duplicates of a URL that ended without content (failed or skipped, now or before) go back to the frontier:
   * fetched again, they are stored, as that URL's state says (canonicalVerdict, and the content key's holder).
   * Returns them, to be enqueued.
   */
  giveBack(outcomes: readonly Outcome[], now: number): FrontierEntry[] {
    const pairs = outcomes.flatMap((o) => (o.kind === 'duplicate' ? [[o.of, o.url]] : []));
    if (pairs.length > 0)
      this.ledger.exec(
        `INSERT INTO canonicals (target, url) SELECT value->>0, value->>1 FROM json_each(?) WHERE true
         ON CONFLICT DO NOTHING`,
        JSON.stringify(pairs),
      );
    const ended = outcomes.flatMap((o) => (o.kind === 'failed' || o.kind === 'skipped' ? [o.url] : []));
    const endedBefore = [...this.endedWithout(pairs.map(([target]) => target ?? ''))];
    if (ended.length + endedBefore.length === 0) return [];
    const reopened = this.seen.reopenDuplicatesOf([...ended, ...endedBefore], now);
    this.ledger.bump('duplicates', -reopened.length);
    this.ledger.bump('pending', reopened.length);
    return reopened;
  }

  /** Forgets what is held in memory (the crawl's storage was deleted). */
  forget(): void {
    this.pending.clear();
    this.claims.forget();
  }

  /** The outcomes of these URLs are recorded: they are in the seen-set now. */
  settled(urls: readonly string[]): void {
    for (const url of urls) this.pending.delete(url);
  }
}
