import type { Claim, CrawlTask } from '../types';
import type { Finished } from './finished';

/**
 * How a frontier invocation plans its subrequests (lib/subrequests.ts, SUBREQUEST_BUDGET): the most each part of its
 * work may spend. Each URL takes its share before it starts; one that does not fit is put off (sent back to the queue,
 * no attempt used up) and the invocation settles what it started. The figures are upper bounds of what the code makes
 * (test/integration/subrequests.test.ts counts them); were one short, the budget refuses the call past it.
 */

/**
 * One URL: its way to the site (at most 6: the crawl's status, the host gate's admission, a paced slot's begin, its
 * release, a back-off, the fetch), what a crawl's options add (at most 5: a soft-404 probe, a cookie jar's two calls,
 * a recrawl's two reads, the page cache's two reads, a render's count and guard), and its share of settling its chunk
 * (1: a chunk holds 25 URLs or more, and settling one costs at most CHUNK).
 */
export const URL_SUBREQUESTS = 12;

/**
 * Settling one chunk: duplicates decided, the R2 segment, the D1 batch, the model step's messages, the coordinator's
 * complete, the webhooks' events, new links sent to the three frontier queues (a call each per 100 messages: the
 * high one, the immediate one, the paced one for those delayed; three) and throttled URLs sent back (two), with a spare.
 */
const CHUNK = 13;

/**
 * One crawl's group of the batch, besides its URLs: its claim, a recrawl's and the page cache's look-ups, its usage
 * report, two chunks not paid for by their URLs' shares (the last, part full, and one recorded early to free memory),
 * and a send for each message whose URLs go back in part.
 */
export const groupSubrequests = (messages: number): number => 4 + 2 * CHUNK + messages;

/** The invocation's own: its browser, if a page needs one (the pool's acquire, launched, renew, release; the connect). */
export const INVOCATION_SUBREQUESTS = 6;

/** Why a URL was put off, and when it is due back. */
const PUT_OFF_REASON = "the invocation's subrequest budget is planned out";
const PUT_OFF_SECONDS = 1;

/**
 * A claimed URL the invocation cannot afford: not started, sent back as a throttled URL is (due in a second, no attempt
 * used up, retried while its message can spare a delivery and sent as a new message when not).
 */
export function putOff(message: Message, task: CrawlTask, claim: Claim): Finished {
  return {
    message,
    task,
    processed: {
      outcome: {
        kind: 'throttled',
        url: task.url,
        fetched: false,
        reason: PUT_OFF_REASON,
        retryDelaySeconds: PUT_OFF_SECONDS,
      },
      attempts: claim.attempts,
    },
  };
}
