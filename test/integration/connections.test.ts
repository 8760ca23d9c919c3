import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { emulatedRuntimeFetch, invocationConnections } from '../../src/page/connections';
import { fetchOnce, NetworkError } from '../../src/page/fetcher';
import { readSettings } from '../../src/settings';
import { allPages, createCrawl, namespace, waitForCrawl } from '../support/api';
import type { HostLogEntry } from '../support/host-log';

/** A test host of this file's own, so its request log holds only this file's requests. */
const base = () => inject('hosts')[13] as string;

async function hostLog(): Promise<HostLogEntry[]> {
  return ((await (await fetch(`${base()}/__hostlog`)).json()) as { entries: HostLogEntry[] }).entries;
}

/** Outcome of each of `urls` fetched at once: 'ok', or the network error's message. */
function fetchAll(
  urls: string[],
  connections: ReturnType<typeof invocationConnections>,
  timeoutMs: number,
): Promise<string[]> {
  const settings = readSettings({ ...env, FETCH_TIMEOUT_MS: String(timeoutMs) });
  return Promise.all(
    urls.map((url) =>
      fetchOnce(url, settings, { headers: {} }, connections).then(
        () => 'ok',
        (error: unknown) => (error instanceof NetworkError ? error.message : String(error)),
      ),
    ),
  );
}

describe("Cloudflare's six connections waiting for headers, per invocation", () => {
  it('the emulation holds a seventh request back as the runtime does, and its timeout runs meanwhile', async () => {
    // Requests waiting for their headers, counted below the emulated runtime (fetch resolves when headers arrive).
    let waiting = 0;
    let most = 0;
    const counted: typeof fetch = (input, init) => {
      most = Math.max(most, ++waiting);
      return fetch(input, init).finally(() => waiting--);
    };
    const ns = namespace();
    // Twelve pages whose headers come after 1,500 ms, fetched at once, each with a 2,000 ms timer of its own: the second
    // six, held back, would answer at 3,000 ms. A plain timer (AbortSignal.timeout), not fetchOnce's deadline: that
    // one is re-armed when its timer fires late (page/deadline.ts), and on a loaded machine (CI under the whole suite)
    // timers fire late and let the held requests live past 3,000 ms.
    const urls = Array.from({ length: 12 }, (_, i) => `${base()}/t/${ns}/flat-12-d1500/p${i + 1}.html`);
    // Without a connection limit of our own, the runtime's queue eats into the timeouts of the second six.
    const runtime = emulatedRuntimeFetch(6, counted);
    const unlimited = await Promise.all(
      urls.map((url) =>
        runtime(url, { signal: AbortSignal.timeout(2000) }).then(
          async (res) => {
            await res.body?.cancel();
            return 'ok';
          },
          (error: unknown) => (error instanceof Error ? error.name : String(error)),
        ),
      ),
    );
    expect(unlimited.filter((r) => r === 'ok')).toHaveLength(6);
    expect(unlimited.filter((r) => r === 'TimeoutError' || r === 'AbortError')).toHaveLength(6);
    expect(most).toBe(6);
    // Waiting for one of the invocation's connections before the clock starts: every request succeeds.
    most = 0;
    const limited = await fetchAll(
      urls,
      {
        ...invocationConnections({ connectionsPerInvocation: 6, emulatedConnectionLimit: 0 }),
        fetch: emulatedRuntimeFetch(6, counted),
      },
      2000,
    );
    expect(limited).toEqual(urls.map(() => 'ok'));
    expect(most).toBe(6);
  });

  it('a crawl under the emulated rule fetches every page once: no timeout fires for a request that waited for a connection', async () => {
    const ns = namespace();
    // 40 pages with headers after 1,000 ms, timeout 3,000 ms (the tests' FETCH_TIMEOUT_MS), 50 fetches in flight per
    // invocation: 34 of them wait for a connection, up to 6 s, longer than their timeout.
    const root = `${base()}/t/${ns}/flat-40-d1000/`;
    const id = await createCrawl({ seeds: [root] });
    const crawl = await waitForCrawl(id);
    expect(crawl.counts).toMatchObject({ discovered: 41, stored: 41, failed: 0 });
    expect(await allPages(id)).toHaveLength(41);
    const mine = (await hostLog()).filter((e) => e.path.startsWith(`/t/${ns}/`));
    // Every page requested once: none timed out and was fetched again.
    expect(mine).toHaveLength(41);
    expect(new Set(mine.map((e) => e.path)).size).toBe(41);
    // The site counts a request until it has finished sending the response, a moment after the crawler has the headers
    // and starts the next one: six waiting for headers can show as seven there.
    expect(Math.max(...mine.map((e) => e.concurrent))).toBeLessThanOrEqual(7);
  });
});
