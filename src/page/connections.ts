import { type Limit, limiter } from '../lib/limit';
import type { Settings } from '../settings';

/**
 * The connections of one Worker invocation. Cloudflare lets an invocation have six connections waiting for response
 * headers; a seventh fetch() is queued by the runtime until one of them has its headers, and its timeout runs while it
 * waits. So page fetches take a connection here first (`limit`, at most settings.connectionsPerInvocation, which is at
 * most six) and start their timeout only once they have one: a timeout measures the server, never the queue.
 * The connection is given back when the headers arrive; the body is read outside the limit.
 */
export interface Connections {
  limit: Limit;
  fetch: typeof fetch;
}

const platformFetch: typeof fetch = (input, init) => fetch(input, init);

/** A request with no other request of its invocation to share the limit with (a scrape). */
export const ALONE: Connections = { limit: (start) => start(), fetch: platformFetch };

/**
 * The invocation's connections. `spend` is told of each page fetch before it goes out (the invocation's subrequests,
 * lib/subrequests.ts), and may refuse it by throwing.
 */
export function invocationConnections(
  settings: Pick<Settings, 'connectionsPerInvocation' | 'emulatedConnectionLimit'>,
  spend: () => void = () => undefined,
): Connections {
  const base =
    settings.emulatedConnectionLimit > 0 ? emulatedRuntimeFetch(settings.emulatedConnectionLimit) : platformFetch;
  return {
    limit: limiter(settings.connectionsPerInvocation),
    fetch: (input, init) => {
      spend();
      return base(input, init);
    },
  };
}

/**
 * fetch() as Cloudflare's runtime runs it for one invocation (wrangler dev does not): at most `max` requests waiting
 * for their headers, the others held in order inside fetch() until one of those has its headers, while the caller's
 * clock (its AbortSignal's timeout) runs. A request aborted while held is never sent.
 */
export function emulatedRuntimeFetch(max: number, base: typeof fetch = platformFetch): typeof fetch {
  const slots = limiter(max);
  return (input, init) =>
    slots(async () => {
      init?.signal?.throwIfAborted();
      return base(input, init);
    });
}
