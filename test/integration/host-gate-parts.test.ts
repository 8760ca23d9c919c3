import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { HostPacing } from '../../src/objects/host-pacing';
import { RobotsCache } from '../../src/objects/host-robots';
import type { RobotsFetch } from '../../src/page/robots-fetch';
import { readSettings } from '../../src/settings';

// The host gate's two parts, each alone, on a gate object's SQLite (made by its schema): the robots.txt cache and the
// pacing. Nothing here is fetched: the cache is given its fetcher.

/** A gate of its own, for its storage. */
const gate = () => env.HOSTS.getByName(`parts-${crypto.randomUUID()}.test`);

/** A fetcher that answers `answer` when let go, counting its calls. */
function fetcher(answer: RobotsFetch) {
  const calls: string[] = [];
  let release = () => {};
  const gateOpen = new Promise<void>((resolve) => {
    release = resolve;
  });
  const fetch = async (origin: string) => {
    calls.push(origin);
    await gateOpen;
    return answer;
  };
  return { calls, release, fetch };
}

const ORIGIN = 'https://parts.test';
const RULES: RobotsFetch = { kind: 'rules', body: 'User-agent: *\nDisallow: /private\nCrawl-delay: 2\n', status: 200 };

describe('RobotsCache', () => {
  it('fetches an origin once however many ask at the same time, stores it, and serves it while fresh', async () => {
    await runInDurableObject(gate(), async (_gate, state) => {
      const robots = fetcher(RULES);
      const cache = new RobotsCache(state.storage.sql, 'edgecrawl-test', robots.fetch);
      const asks = [
        cache.within(ORIGIN, 0, Number.POSITIVE_INFINITY),
        cache.within(ORIGIN, 0, Number.POSITIVE_INFINITY),
      ];
      // Not within a budget of nothing: asked again later.
      expect(await cache.within(ORIGIN, 0, 0)).toBeNull();
      robots.release();
      const [first, second] = await Promise.all(asks);
      expect(robots.calls).toEqual([ORIGIN]);
      expect(first).toBe(second);
      expect(first?.robots.isAllowed(`${ORIGIN}/private/x`, 'edgecrawl-test')).toBe(false);
      expect(first?.crawlDelayMs).toBe(2000);
      // Fresh: served as it is, from memory and from SQLite (a new instance), not fetched again.
      expect(await cache.within(ORIGIN, 0, 0)).toBe(first);
      const again = new RobotsCache(state.storage.sql, 'edgecrawl-test', robots.fetch);
      expect((await again.rules(ORIGIN)).body).toBe(RULES.kind === 'rules' ? RULES.body : null);
      expect(again.all()).toMatchObject([{ origin: ORIGIN, kind: 'rules', crawlDelayMs: 2000 }]);
      expect(robots.calls).toHaveLength(1);
    });
  });

  it('serves expired rules while it fetches them again, but not an expired unreachable answer', async () => {
    await runInDurableObject(gate(), async (_gate, state) => {
      const sql = state.storage.sql;
      const first = fetcher(RULES);
      first.release();
      await new RobotsCache(sql, 'edgecrawl-test', first.fetch).within(ORIGIN, 0, Number.POSITIVE_INFINITY);
      sql.exec('UPDATE robots SET expires_at = ?', Date.now() - 1000);
      const refetch = fetcher({ kind: 'unreachable', reason: 'HTTP 503' });
      const cache = new RobotsCache(sql, 'edgecrawl-test', refetch.fetch);
      // Expired rules, within the stale window: served at once, and fetched again.
      expect((await cache.within(ORIGIN, 0, 0))?.kind).toBe('rules');
      expect(refetch.calls).toEqual([ORIGIN]);
      refetch.release();
      for (let i = 0; i < 50 && cache.all()[0]?.kind !== 'unreachable'; i++)
        await new Promise((r) => setTimeout(r, 10));
      // Fetched, the new answer is what is served (fresh for its retry time).
      expect((await cache.within(ORIGIN, 0, 0))?.kind).toBe('unreachable');
      // The unreachable answer expires: nothing is served meanwhile.
      sql.exec('UPDATE robots SET expires_at = ?', Date.now() - 1000);
      const later = fetcher(RULES);
      const next = new RobotsCache(sql, 'edgecrawl-test', later.fetch);
      expect(await next.within(ORIGIN, 0, 0)).toBeNull();
      later.release();
      expect((await next.within(ORIGIN, 0, Number.POSITIVE_INFINITY))?.kind).toBe('rules');
      expect(later.calls).toHaveLength(1);
    });
  });
});

describe('HostPacing', () => {
  it('spaces the slots it grants, books them in the name of their crawl, and keeps its state across an instance', async () => {
    await runInDurableObject(gate(), async (_gate, state) => {
      const settings = { ...readSettings(env), hostMinIntervalMs: 1000, hostMaxConcurrency: 4 };
      const pacing = new HostPacing(state.storage.sql, settings);
      const ask = { minIntervalMs: 0, maxWaitMs: 60_000, crawlId: 'c1' };
      const first = pacing.reserve(ask, 0);
      const second = pacing.reserve(ask, 0);
      if (first.kind !== 'go' || second.kind !== 'go') throw new Error('expected two slots');
      // The interval and its margin (1%, at least 1 ms), and a Crawl-delay beyond it spaces the next slot more.
      expect(first.spacing).toBe(1010);
      expect(second.startAt - first.startAt).toBe(1010);
      expect(pacing.reserve(ask, 3000)).toMatchObject({ kind: 'go', spacing: 3020 });
      expect(pacing.state()).toMatchObject({ inflight: 3, requests: 3 });
      // The crawl ends: its slots not yet begun are taken back, and it is remembered as ended.
      const released = pacing.releaseCrawl('c1', true);
      expect(released.taken).toBe(3);
      expect(released.booked).toBeGreaterThanOrEqual(2); // the first, if its start has passed, is not ahead any more
      expect(pacing.hasEnded('c1', Date.now())).toBe(true);
      expect(await pacing.begin(first.slot, first.spacing)).toBe(false);
      // A back-off is written at once: a new instance (a restarted object) keeps it and the requests granted.
      const until = pacing.backoff(5000);
      const restarted = new HostPacing(state.storage.sql, settings).state();
      expect(restarted.requests).toBe(3);
      expect(restarted.blockedForMs).toBeGreaterThan(0);
      expect(restarted.blockedForMs).toBeLessThanOrEqual(until - Date.now() + 1);
    });
  });

  it('runs a request paced, outside the timeline, one at a time', async () => {
    await runInDurableObject(gate(), async (_gate, state) => {
      const settings = { ...readSettings(env), hostMinIntervalMs: 200, hostMaxConcurrency: 4 };
      const pacing = new HostPacing(state.storage.sql, settings);
      const started: number[] = [];
      const run = () => pacing.paced(0, async () => started.push(Date.now()));
      await Promise.all([run(), run()]);
      expect(started).toHaveLength(2);
      expect(Math.abs((started[1] ?? 0) - (started[0] ?? 0))).toBeGreaterThanOrEqual(200);
      // Off the timeline: the next slot is not pushed back by them.
      expect(pacing.state()).toMatchObject({ inflight: 0, requests: 2, nextSlotInMs: 0 });
    });
  });
});
