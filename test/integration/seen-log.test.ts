import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/domain/crawl/fingerprints';
import { UrlState } from '../../src/domain/crawl/url-life';
import { Ledger } from '../../src/objects/crawl/ledger';
import { SeenSet } from '../../src/objects/crawl/seen-set';
import type { FrontierEntry } from '../../src/types';
import { testConfig } from '../support/fixtures';

const url = (i: number) => `https://log.test/p${i}`;
const entry = (i: number, depth = 1): FrontierEntry => ({ url: url(i), depth, hops: 0 });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

async function started(overrides = {}) {
  const id = crypto.randomUUID();
  const stub = env.CRAWL.getByName(id);
  await stub.start(id, testConfig({ seeds: [url(0)], ...overrides }));
  return stub;
}

/** The seen-set as an instance that woke after a restart sees it: a new SeenSet over the same storage. */
const woken = (sql: SqlStorage) => new SeenSet(new Ledger(sql));

/** Each URL's state and attempts, as `seen` finds it. */
const states = (seen: SeenSet, urls: readonly string[]) =>
  Object.fromEntries([...seen.find(urls)].map(([u, row]) => [u, [row.state, row.attempts, row.depth]]));

/** Two URLs of log.test whose 32-bit fingerprints are the same (found by the birthday bound in ~2^16 tries). */
function collidingUrls(): [string, string] {
  const seen = new Map<number, string>();
  for (let n = 0; ; n++) {
    const candidate = `https://log.test/c${n}`;
    const other = seen.get(fingerprint(candidate));
    if (other !== undefined) return [other, candidate];
    seen.set(fingerprint(candidate), candidate);
  }
}

describe("the seen-set's log: rows per call, not per URL", () => {
  it('writes one row for a call that offers 500 URLs and one for a call that stores 100 of them', async () => {
    const stub = await started();
    await runInDurableObject(stub, (instance, state) => {
      const { seen, ledger } = instance.parts;
      const written = () => ledger.usage.operations.durableObjectRowsWritten;
      const before = written();
      expect(
        seen.offer(
          range(1, 501).map((i) => entry(i)),
          Number.POSITIVE_INFINITY,
          Date.now(),
        ),
      ).toHaveLength(500);
      expect(written() - before).toBe(1);
      const mid = written();
      expect(seen.finish('stored', null, null, range(1, 101).map(url))).toBe(100);
      expect(written() - mid).toBe(1);
      // Ended once: a second report of the same URLs changes nothing and writes nothing.
      expect(seen.finish('stored', null, null, range(1, 101).map(url))).toBe(0);
      expect(written() - mid).toBe(1);
      expect(state.storage.sql.exec('SELECT COUNT(*) AS n FROM urls').one().n).toBe(0);
      expect(seen.find([url(5), url(200)]).get(url(5))?.state).toBe(UrlState.Stored);
      expect(seen.find([url(200)]).get(url(200))?.state).toBe(UrlState.Queued);
      // Offered again, known ones are not taken: nothing written.
      expect(seen.offer([entry(5), entry(200)], 10, Date.now())).toEqual([]);
      expect(written() - mid).toBe(1);
    });
  });

  it("a completion's pages stored and links offered are one row, a failure among them a row of its own", async () => {
    const stub = await started();
    const rows = () =>
      runInDurableObject(stub, (_instance, state) => ({
        log: state.storage.sql.exec('SELECT COUNT(*) AS n FROM log').one().n,
        urls: state.storage.sql.exec('SELECT COUNT(*) AS n FROM urls').one().n,
      }));
    await stub.claim([url(0)]);
    await stub.complete([{ url: url(0), kind: 'stored', fetched: true, links: range(1, 4).map((i) => entry(i)) }]);
    expect(await rows()).toEqual({ log: 2, urls: 0 });
    await stub.claim([url(1), url(2), url(3)]);
    const answer = await stub.complete([
      { url: url(1), kind: 'stored', fetched: true, links: [entry(4), entry(1), entry(0)] },
      { url: url(2), kind: 'stored', fetched: true, links: [entry(4), entry(5)] },
      { url: url(3), kind: 'failed', fetched: true, reason: 'http 404', code: 'http_4xx' },
    ]);
    expect(answer.accepted.map((e) => e.url)).toEqual([url(4), url(5)]);
    expect(answer.stored).toEqual([url(1), url(2)]);
    expect(await rows()).toEqual({ log: 3, urls: 1 });
    expect((await stub.snapshot())?.counts).toMatchObject({ discovered: 6, stored: 3, failed: 1 });
  });

  it('a URL anything else befalls is taken over by a urls row, and an instance that wakes sees every state as before', async () => {
    const stub = await started();
    await runInDurableObject(stub, (instance, state) => {
      const { seen } = instance.parts;
      const now = Date.now();
      seen.offer(
        range(1, 41).map((i) => entry(i, i % 3)),
        Number.POSITIVE_INFINITY,
        now,
      );
      seen.finish('stored', null, null, range(1, 11).map(url));
      seen.finish('failed', 'http 404', 'http_4xx', range(11, 16).map(url));
      seen.finish('duplicate', null, null, [url(16)]);
      seen.requeue(url(17), now + 60_000, 'http 503', true);
      seen.requeue(url(18), now, 'http 503', true);
      seen.finish('stored', null, null, [url(18)]);
      const all = [url(0), ...range(1, 41).map(url), url(99)];
      const before = states(seen, all);
      expect(before[url(17)]).toEqual([UrlState.Queued, 1, 17 % 3]);
      expect(before[url(18)]).toEqual([UrlState.Stored, 1, 0]);
      expect(before[url(11)]).toEqual([UrlState.Failed, 0, 11 % 3]);
      expect(before[url(99)]).toBeUndefined();
      // Rows: the failed, the duplicate and the two retried; the rest are log entries.
      expect(state.storage.sql.exec('SELECT COUNT(*) AS n FROM urls').one().n).toBe(8);
      const after = woken(state.storage.sql);
      expect(states(after, all)).toEqual(before);
      const pending = (s: SeenSet) =>
        s
          .due(Number.MAX_SAFE_INTEGER, 1000, new Set())
          .map((e) => e.url)
          .sort();
      expect(pending(after)).toEqual(pending(seen));
      expect(pending(after)).toEqual([url(0), url(17), ...range(19, 41).map(url)].sort());
      // Due now: not the URL retried a minute from now.
      expect(after.due(now, 1000, new Set()).map((e) => e.url)).not.toContain(url(17));
      // Known to the woken instance: none offered again.
      expect(
        after.offer(
          range(0, 41).map((i) => entry(i)),
          100,
          now,
        ),
      ).toEqual([]);
    });
  });

  it('past its capacity, a new URL is a urls row of its own, and every URL is found and due as before', async () => {
    const stub = await started();
    await runInDurableObject(stub, (_instance, state) => {
      const now = Date.now();
      const seen = new SeenSet(new Ledger(state.storage.sql), 10);
      // The seed and 8 URLs: 9 in the log; the next 5 would pass 10, so they are rows, as are the 3 after them.
      expect(
        seen.offer(
          range(1, 9).map((i) => entry(i)),
          100,
          now,
        ),
      ).toHaveLength(8);
      expect(
        seen.offer(
          range(9, 14).map((i) => entry(i)),
          100,
          now,
        ),
      ).toHaveLength(5);
      expect(
        seen.offer(
          range(12, 17).map((i) => entry(i)),
          100,
          now,
        ),
      ).toHaveLength(3);
      expect(state.storage.sql.exec('SELECT COUNT(*) AS n FROM urls').one().n).toBe(8);
      expect(seen.held.urls).toBe(9);
      expect(seen.finish('stored', null, null, [url(3), url(10)])).toBe(2);
      const all = range(0, 17).map(url);
      expect(seen.queued(all)).toHaveLength(15);
      expect(woken(state.storage.sql).due(now, 100, new Set())).toHaveLength(15);
    });
  });

  it('tells apart two URLs of the same fingerprint: one stored, the other new, before and after a wake', async () => {
    const [first, second] = collidingUrls();
    expect(fingerprint(first)).toBe(fingerprint(second));
    const stub = await started();
    await runInDurableObject(stub, (instance, state) => {
      const { seen } = instance.parts;
      const now = Date.now();
      expect(seen.offer([{ url: first, depth: 1, hops: 0 }], 10, now)).toHaveLength(1);
      expect(seen.finish('stored', null, null, [second])).toBe(0);
      expect(seen.finish('stored', null, null, [first])).toBe(1);
      expect(seen.find([second]).size).toBe(0);
      expect(woken(state.storage.sql).find([second]).size).toBe(0);
      expect(woken(state.storage.sql).offer([{ url: second, depth: 1, hops: 0 }], 10, now)).toHaveLength(1);
    });
  });

  it("brings a restart's delayed entries forward, and counts each host's pages and the deepest stored once", async () => {
    const stub = await started();
    await runInDurableObject(stub, (instance, state) => {
      const { seen } = instance.parts;
      const now = Date.now();
      seen.offer(
        range(1, 6).map((i) => entry(i, i)),
        10,
        now,
        (fresh) => fresh.map((_, i) => now + i * 3_600_000),
      );
      seen.offer([{ url: 'https://other.test/a', depth: 1, hops: 0 }], 10, now);
      seen.finish('stored', null, null, [url(2)]);
      expect(seen.due(now + 1000, 100, new Set()).map((e) => e.url)).toEqual([url(0), url(1), 'https://other.test/a']);
      seen.forgetReservations(now + 1000);
      const after = woken(state.storage.sql);
      expect(after.due(now + 1000, 100, new Set())).toHaveLength(7 - 1);
      const hosts = new Map<string, number>();
      after.eachPage((u) => hosts.set(new URL(u).host, (hosts.get(new URL(u).host) ?? 0) + 1));
      expect(Object.fromEntries(hosts)).toEqual({ 'log.test': 6, 'other.test': 1 });
      expect(after.reachedDepth(2)).toBe(true);
      expect(after.reachedDepth(3)).toBe(false);
    });
  });
});
