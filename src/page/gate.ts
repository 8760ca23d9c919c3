import type { FetchFailure } from '../domain/fetch/failure';

/** What fetching a page needs from its host's gate (objects/host-gate-client implements it). */

/** What the fetch told the gate when it was over: a 429 or Retry-After slows the host down for everyone. */
export interface GateReport {
  status: number;
  respondedAt: number;
  retryAfterSeconds?: number;
}

export type GateResult =
  /**
   * A slot was granted and its start reached: fetch now, then call done(). `paced`: the gap the host keeps after this
   * request's response (its interval, its Crawl-delay), and when the slot began (epoch ms), for a paced slot.
   */
  | {
      kind: 'go';
      robotsSitemaps?: string[];
      done: (response?: GateReport) => Promise<void>;
      paced?: { spacing: number; beganAt: number };
    }
  | { kind: 'disallowed'; robotsSitemaps?: string[] }
  /**
   * robots.txt unreachable: a transient failure of this URL. With `failure` (dns, refused), the host itself cannot be
   * reached: the URL fails now, for that reason.
   */
  | { kind: 'unreachable'; reason: string; retryInMs: number; failure?: FetchFailure }
  /**
   * No slot within the wait budget: hand the URL back without using up an attempt, due back in retryInMs. With
   * `reservation` (epoch ms), a slot is reserved for it then: the URL presents it when it comes back.
   */
  | { kind: 'throttled'; retryInMs: number; reservation?: number }
  /** The crawl has ended, and its host slots were given back: the URL is handed back unfetched. */
  | { kind: 'ended' };

/** A crawl's own politeness, on top of the host's. */
export interface CrawlPoliteness {
  minIntervalMs: number;
  maxConcurrency?: number;
  /** Also return the Sitemap URLs of the robots.txt of the URL's origin. */
  wantRobotsSitemaps?: boolean;
}

/** Passes a URL through its host's gate: robots.txt, then a slot (the one reserved for it at `reservedAt`, if any). */
export type Gate = (url: string, politeness: CrawlPoliteness, reservedAt?: number) => Promise<GateResult>;
