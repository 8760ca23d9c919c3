import { classifyOriginError, type FetchFailure } from '../domain/fetch/failure';
import { ROBOTS_PARSE_LIMIT_BYTES } from '../domain/robots/robots';
import { isRefusedUrl } from '../domain/url/address';
import type { Settings } from '../settings';
import { networkFailure, readCapped } from './fetcher';

/** What fetching an origin's robots.txt told us (RFC 9309 section 2.3.1). */
export type RobotsFetch =
  /** 2xx: the rules apply. */
  | { kind: 'rules'; body: string; status: number }
  /** 4xx, too many redirects, or a redirect we may not follow: no rules apply. */
  | { kind: 'allow-all'; reason: string }
  /**
   * 5xx, 429 or network error: assume complete disallow and try again later. `failure` names a network failure (no
   * HTTP answer: dns, refused, timeout, ...); an HTTP answer has none.
   */
  | { kind: 'unreachable'; reason: string; failure?: FetchFailure };

const MAX_ROBOTS_REDIRECTS = 5;

/** Reads at most `limit` bytes of a body; the rest is discarded (robots.txt is parsed up to a limit). */
export async function readUpTo(stream: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array> {
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const out = new Uint8Array(limit);
  let size = 0;
  while (size < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    const take = Math.min(value.byteLength, limit - size);
    out.set(value.subarray(0, take), size);
    size += take;
  }
  await reader.cancel().catch(() => undefined);
  return out.subarray(0, size);
}

/** The body as text, or '' when it is larger than `limit` or cannot be read. */
async function textUpTo(response: Response, limit: number): Promise<string> {
  const bytes = await readCapped(response.body, limit).catch(() => new Uint8Array(0));
  return new TextDecoder().decode(bytes);
}

/** Fetches `<origin>/robots.txt`, following up to five redirects by hand. */
export async function fetchRobots(origin: string, settings: Settings): Promise<RobotsFetch> {
  let url = `${origin}/robots.txt`;
  for (let hop = 0; hop <= MAX_ROBOTS_REDIRECTS; hop++) {
    if (isRefusedUrl(url, settings.allowPrivateNetworks))
      return { kind: 'allow-all', reason: `robots.txt redirects to a refused address (${url})` };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), settings.fetchTimeoutMs);
    try {
      const response = await fetch(url, {
        redirect: 'manual',
        signal: controller.signal,
        headers: { 'user-agent': settings.userAgent, accept: 'text/plain,*/*;q=0.5' },
      });
      const status = response.status;
      if (status >= 300 && status < 400 && response.headers.get('location')) {
        await response.body?.cancel().catch(() => undefined);
        let next: URL;
        try {
          next = new URL(response.headers.get('location') as string, url);
        } catch {
          return { kind: 'allow-all', reason: `robots.txt redirects to an invalid URL` };
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:')
          return { kind: 'allow-all', reason: `robots.txt redirects to ${next.protocol}` };
        url = next.href;
        continue;
      }
      if (status >= 200 && status < 300) {
        const bytes = await readUpTo(response.body, ROBOTS_PARSE_LIMIT_BYTES);
        return { kind: 'rules', body: new TextDecoder().decode(bytes), status };
      }
      const origin =
        status === 530
          ? classifyOriginError(status, await textUpTo(response, 64 * 1024), new URL(url).hostname)
          : undefined;
      if (origin) return { kind: 'unreachable', reason: `robots.txt unreachable: ${origin.message}`, failure: origin };
      await response.body?.cancel().catch(() => undefined);
      if (status >= 400 && status < 500 && status !== 429)
        return { kind: 'allow-all', reason: `robots.txt answered http ${status}` };
      return { kind: 'unreachable', reason: `robots.txt answered http ${status}` };
    } catch (error) {
      const failure = await networkFailure(url, error, controller.signal.aborted, settings.fetchTimeoutMs);
      return {
        kind: 'unreachable',
        reason: failure.kind === 'timeout' ? 'robots.txt timed out' : `robots.txt unreachable: ${failure.message}`,
        failure,
      };
    } finally {
      clearTimeout(timer);
    }
  }
  return { kind: 'allow-all', reason: `robots.txt: more than ${MAX_ROBOTS_REDIRECTS} redirects` };
}
