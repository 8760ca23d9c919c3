import {
  type CanonicalState,
  canonicalVerdict,
  contentVerdict,
  type DedupeCandidate,
  type Verdict,
} from '../../domain/crawl/duplicates';
import { type FrontierEntry, type Outcome, UrlState } from '../../domain/crawl/url-life';
import { ContentClaims } from './content-claims';
import type { Ledger } from './ledger';
import type { SeenSet } from './seen-set';

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
    const firsts = this.claims.claim(
      candidates.flatMap((c, i) => (verdicts[i] === null && c.key !== null ? [{ key: c.key, url: c.url }] : [])),
    );
    return candidates.map(
      (c, i) => verdicts[i] ?? contentVerdict(c, c.key === null ? null : (firsts.get(c.key) ?? null)),
    );
  }

  /**
   * After outcomes are recorded: each duplicate of a canonical is kept under it (one row), and the duplicates of a
   * canonical that ended without content (failed or skipped, now or before) go back to the frontier: fetched again,
   * they are stored, their canonical's state says so (canonicalVerdict). Returns them, to be enqueued.
   */
  giveBack(outcomes: readonly Outcome[], now: number): FrontierEntry[] {
    const pairs = outcomes.flatMap((o) => (o.kind === 'duplicate' && o.reason === 'canonical' ? [[o.of, o.url]] : []));
    if (pairs.length > 0)
      this.ledger.exec(
        `INSERT INTO canonicals (target, url) SELECT value->>0, value->>1 FROM json_each(?) WHERE true
         ON CONFLICT DO NOTHING`,
        JSON.stringify(pairs),
      );
    const ended = outcomes.flatMap((o) => (o.kind === 'failed' || o.kind === 'skipped' ? [o.url] : []));
    const targets = pairs.map(([target]) => target ?? '');
    const endedBefore =
      targets.length === 0
        ? []
        : [...this.seen.find(targets).values()]
            .filter((r) => r.state === UrlState.Failed || r.state === UrlState.Skipped)
            .map((r) => r.url);
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
