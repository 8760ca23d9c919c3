import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/api/app';
import type { AdmitRequest } from '../../src/objects/host-gate';
import { allPages, createCrawl, namespace, site, waitForCrawl } from '../support/api';
import { testConfig } from '../support/fixtures';
import type { HostLogEntry } from '../support/host-log';

/** Each test uses a loopback host of its own (127.0.0.x), so robots.txt and pacing are its alone. */
function host(index: number): string {
  const hosts = inject('hosts');
  const base = hosts[index];
  if (!base) throw new Error(`no test host ${index}`);
  return base;
}

async function putRobots(
  base: string,
  body: string,
  options: { status?: number; location?: string } = {},
): Promise<void> {
  const query = new URLSearchParams();
  if (options.status) query.set('status', String(options.status));
  if (options.location) query.set('location', options.location);
  const res = await fetch(`${base}/__robots?${query}`, { method: 'PUT', body });
  expect(res.status).toBe(204);
}

async function hostLog(base: string): Promise<{ entries: HostLogEntry[]; maxConcurrent: number }> {
  return (await (await fetch(`${base}/__hostlog`)).json()) as { entries: HostLogEntry[]; maxConcurrent: number };
}

function gaps(entries: HostLogEntry[]): number[] {
  const times = entries.map((e) => e.at).sort((a, b) => a - b);
  return times.slice(1).map((t, i) => t - (times[i] as number));
}

describe('robots.txt in a crawl', () => {
  it('never requests a disallowed URL; robots.txt is fetched once, first, with our user agent', async () => {
    const base = host(0);
    const ns = namespace();
    const site = `/t/${ns}/pure-31/`;
    await putRobots(
      base,
      `User-agent: *\nDisallow: /\n\nUser-agent: edgecrawl\nDisallow: ${site}p2.html\nDisallow: /*p7.html$\nAllow: /\n`,
    );
    const id = await createCrawl({ seeds: [`${base}${site}`] });
    const crawl = await waitForCrawl(id);

    expect(crawl.status).toBe('completed');
    // root, p1, p3, p6, p12, p13, p24-p27 fetched; p2 and p7 skipped (so their subtrees are never found).
    expect(crawl.counts).toEqual({ discovered: 12, fetched: 10, stored: 10, failed: 0, skipped: 2, duplicates: 0 });
    const { entries } = await hostLog(base);
    const paths = entries.map((e) => e.path);
    expect(paths[0]).toBe('/robots.txt');
    expect(paths.filter((p) => p === '/robots.txt')).toHaveLength(1);
    expect(paths).not.toContain(`${site}p2.html`);
    expect(paths).not.toContain(`${site}p7.html`);
    expect(paths.some((p) => /\/p(4|5|8|14|15)\.html$/.test(p))).toBe(false);
    expect(new Set(entries.map((e) => e.userAgent))).toEqual(new Set([env.USER_AGENT]));

    const { results } = await env.DB.prepare(
      "SELECT url, reason FROM errors WHERE crawl_id = ? AND outcome = 'skipped' ORDER BY url",
    )
      .bind(id)
      .all<{ url: string; reason: string }>();
    expect(results).toEqual([
      { url: `${base}${site}p2.html`, reason: 'blocked by robots.txt' },
      { url: `${base}${site}p7.html`, reason: 'blocked by robots.txt' },
    ]);
    expect((await allPages(id)).map((p) => p.url)).not.toContain(`${base}${site}p2.html`);
  });
});

describe('per-host rate limiting, measured at the server', () => {
  it('keeps every gap at or above the robots.txt Crawl-delay, and approaches that rate', async () => {
    const base = host(1);
    const ns = namespace();
    await putRobots(base, 'User-agent: *\nCrawl-delay: 0.2\n');
    // A wide site, so the frontier always has work waiting for the host.
    const id = await createCrawl({ seeds: [`${base}/t/${ns}/flat-30/`] });
    const crawl = await waitForCrawl(id);
    expect(crawl.counts).toMatchObject({ discovered: 31, stored: 31 });
    const { entries } = await hostLog(base);
    expect(entries).toHaveLength(32); // robots.txt + 31 pages
    const g = gaps(entries);
    expect(Math.min(...g)).toBeGreaterThanOrEqual(200);
    const span = (entries.at(-1)?.at ?? 0) - (entries[0]?.at ?? 0);
    const achieved = (entries.length - 1) / (span / 1000);
    expect(achieved).toBeLessThanOrEqual(5);
    // Queue batches add some idle time; the host still runs at most of its allowed rate.
    expect(achieved).toBeGreaterThan(5 * 0.6);
  });

  it('two crawls of one host at once share its limit: no two requests closer than the interval', async () => {
    const base = host(2);
    const [ns1, ns2] = [namespace(), namespace()];
    const [id1, id2] = await Promise.all([
      createCrawl({ seeds: [`${base}/t/${ns1}/pure-15/`], hostIntervalMs: 150 }),
      createCrawl({ seeds: [`${base}/t/${ns2}/pure-15/`], hostIntervalMs: 150 }),
    ]);
    const [c1, c2] = await Promise.all([waitForCrawl(id1), waitForCrawl(id2)]);
    expect(c1.counts.stored).toBe(16);
    expect(c2.counts.stored).toBe(16);
    const { entries } = await hostLog(base);
    expect(entries.filter((e) => e.path.includes(ns1))).toHaveLength(16);
    expect(entries.filter((e) => e.path.includes(ns2))).toHaveLength(16);
    // The two crawls interleave, and still no gap falls below 150 ms.
    const owners = entries.filter((e) => e.path !== '/robots.txt').map((e) => (e.path.includes(ns1) ? 1 : 2));
    expect(owners.slice(0, 20)).toContain(2);
    expect(Math.min(...gaps(entries))).toBeGreaterThanOrEqual(150);
  });

  it('caps requests in flight to a host', async () => {
    const base = host(4);
    const ns = namespace();
    const id = await createCrawl({ seeds: [`${base}/t/${ns}/pure-15-d300/`], hostConcurrency: 2, hostIntervalMs: 0 });
    const crawl = await waitForCrawl(id);
    expect(crawl.counts.stored).toBe(16);
    const log = await hostLog(base);
    expect(log.maxConcurrent).toBe(2);
  });

  it('backs a host off after 429 with Retry-After, and the crawl still completes', async () => {
    const base = host(3);
    const ns = namespace();
    // One request at a time, so no request is already under way when a 429 arrives.
    const id = await createCrawl({ seeds: [`${base}/t/${ns}/busy-3/`], hostConcurrency: 1 });
    const crawl = await waitForCrawl(id);
    expect(crawl.status).toBe('completed');
    expect(crawl.counts).toEqual({ discovered: 4, fetched: 8, stored: 4, failed: 0, skipped: 0, duplicates: 0 });
    const entries = (await hostLog(base)).entries.filter((e) => e.path !== '/robots.txt').sort((a, b) => a.at - b.at);
    expect(entries).toHaveLength(8);
    // The first request for each page got a 429 with Retry-After: 1; nothing reached the host for 1 s after.
    const seen = new Set<string>();
    entries.forEach((entry, i) => {
      const first = !seen.has(entry.path);
      seen.add(entry.path);
      const next = entries[i + 1];
      if (first && next) expect(next.at - entry.at, `${entry.path} then ${next.path}`).toBeGreaterThanOrEqual(1000);
    });
  });
});

describe('the HostGate Durable Object', () => {
  it('treats an unreachable robots.txt (5xx) as complete disallow, to be asked again later', async () => {
    const base = host(5);
    await putRobots(base, 'oops', { status: 503 });
    const gate = env.HOSTS.getByName(new URL(base).hostname);
    const admission = await gate.admit({ url: `${base}/t/x/pure-1/`, minIntervalMs: 0, maxWaitMs: 1000 });
    expect(admission).toMatchObject({ kind: 'unreachable', reason: 'robots.txt answered http 503' });
    expect((await hostLog(base)).entries.map((e) => e.path)).toEqual(['/robots.txt']);
    const state = await gate.state();
    expect(state.robots[0]).toMatchObject({ kind: 'unreachable' });
    expect((state.robots[0]?.expiresAt ?? 0) - (state.robots[0]?.fetchedAt ?? 0)).toBe(30_000);
  });

  it('treats a 4xx robots.txt as allow-all, and caches it: one fetch for many admissions', async () => {
    const base = host(6);
    const gate = env.HOSTS.getByName(new URL(base).hostname);
    const admissions = await Promise.all(
      Array.from({ length: 5 }, (_, i) => gate.admit({ url: `${base}/page-${i}`, minIntervalMs: 0, maxWaitMs: 1000 })),
    );
    expect(admissions.every((a) => a.kind === 'go')).toBe(true);
    for (const a of admissions) if (a.kind === 'go') await gate.release(a.slot);
    expect((await hostLog(base)).entries.map((e) => e.path)).toEqual(['/robots.txt']);
    const state = await gate.state();
    expect(state.robots[0]).toMatchObject({ kind: 'allow-all', reason: 'robots.txt answered http 404' });
    expect((state.robots[0]?.expiresAt ?? 0) - (state.robots[0]?.fetchedAt ?? 0)).toBe(24 * 60 * 60_000);
  });

  it('follows robots.txt redirects, also to another host', async () => {
    const base = host(7);
    const target = host(10);
    await putRobots(target, 'User-agent: *\nDisallow: /private\n');
    await putRobots(base, '', { status: 301, location: `${target}/robots.txt` });
    const gate = env.HOSTS.getByName(new URL(base).hostname);
    expect(await gate.admit({ url: `${base}/private/x`, minIntervalMs: 0, maxWaitMs: 1000 })).toEqual({
      kind: 'disallowed',
    });
    expect((await gate.admit({ url: `${base}/public`, minIntervalMs: 0, maxWaitMs: 1000 })).kind).toBe('go');
  });

  it('gives up after five robots.txt redirects and assumes no rules', async () => {
    const base = host(8);
    await putRobots(base, '', { status: 302, location: '/robots.txt' });
    const gate = env.HOSTS.getByName(new URL(base).hostname);
    expect((await gate.admit({ url: `${base}/anything`, minIntervalMs: 0, maxWaitMs: 1000 })).kind).toBe('go');
    expect((await hostLog(base)).entries.filter((e) => e.path === '/robots.txt')).toHaveLength(6);
    expect((await gate.state()).robots[0]).toMatchObject({
      kind: 'allow-all',
      reason: 'robots.txt: more than 5 redirects',
    });
  });

  it('reserves slots a full interval apart, holds back-offs, and hands out nothing beyond the wait budget', async () => {
    const base = host(9);
    const gate = env.HOSTS.getByName(new URL(base).hostname);
    const first = await gate.admit({ url: `${base}/a`, minIntervalMs: 500, maxWaitMs: 5000 });
    const second = await gate.admit({ url: `${base}/b`, minIntervalMs: 500, maxWaitMs: 5000 });
    expect(first.kind).toBe('go');
    expect(second.kind).toBe('go');
    // Start times on the host's clock (waitMs counts from each grant, and the grants are not at the same moment).
    if (first.kind === 'go' && second.kind === 'go') expect(second.startAt - first.startAt).toBeGreaterThanOrEqual(500);
    const tooSoon = await gate.admit({ url: `${base}/c`, minIntervalMs: 500, maxWaitMs: 100 });
    expect(tooSoon.kind).toBe('wait');
    await gate.backoff(3000);
    const blocked = await gate.admit({ url: `${base}/d`, minIntervalMs: 0, maxWaitMs: 100 });
    expect(blocked.kind).toBe('wait');
    if (blocked.kind === 'wait') expect(blocked.retryInMs).toBeGreaterThan(2500);
    expect((await gate.state()).blockedForMs).toBeGreaterThan(2500);
  });
});

describe('a batch of admissions', () => {
  it('does not wait on its own slots: a second origin of the host gets its robots.txt while the first holds every slot', async () => {
    const base = host(12);
    const gate = env.HOSTS.getByName(new URL(base).hostname);
    const ns = namespace();
    // As many URLs as the host has slots (HOST_MAX_CONCURRENCY is 64 in tests), then one on another port of the
    // same host name, whose robots.txt is not known yet: fetching it needs a slot of its own.
    const first = Array.from({ length: 64 }, (_, i) => ({
      url: `${base}/t/${ns}/pure-100/p${i + 1}.html`,
      minIntervalMs: 0,
      maxWaitMs: 10_000,
    }));
    const other = {
      url: `http://${new URL(base).hostname}:1/t/${ns}/other-port.html`,
      minIntervalMs: 0,
      maxWaitMs: 10_000,
    };
    const started = Date.now();
    const admissions = await gate.admitMany([...first, other]);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(admissions.slice(0, 64).every((a) => a.kind === 'go')).toBe(true);
    // Nothing listens on port 1: its robots.txt is unreachable, which is an answer, not a wait.
    expect(admissions[64]).toMatchObject({ kind: 'unreachable' });
    await gate.releaseMany(admissions.flatMap((a) => (a.kind === 'go' ? [{ slot: a.slot }] : [])));
    expect((await gate.state()).inflight).toBe(0);
  });
});

describe('slots of a crawl that ends', () => {
  /** `n` URLs of a crawl asked for at once, paced at `interval`, reserving what does not fit the budget. */
  const asking = (base: string, crawlId: string, n: number, interval = 1000, maxWaitMs = 2000) =>
    Array.from({ length: n }, (_, i) => ({
      url: `${base}/${crawlId}/p${i}`,
      minIntervalMs: interval,
      maxWaitMs,
      reserve: true,
      crawlId,
    }));

  it('are given back at once, granted and reserved, and the next request takes the first free slot', async () => {
    const base = host(20);
    const gate = env.HOSTS.getByName(new URL(base).hostname);
    const a = await gate.admitMany(asking(base, 'crawl-a', 30));
    const b = await gate.admitMany(asking(base, 'crawl-b', 3));
    expect(a.filter((x) => x.kind === 'go').length).toBeGreaterThanOrEqual(2);
    expect(a.filter((x) => x.kind === 'reserved').length).toBeGreaterThanOrEqual(27);
    expect(b.every((x) => x.kind === 'reserved')).toBe(true);
    expect((await gate.state()).nextSlotInMs).toBeGreaterThan(30_000);

    // Crawl a is cancelled: every slot it held comes back, what it was granted and has not begun too.
    const freed = await gate.releaseCrawl('crawl-a', true);
    expect(freed.booked).toBe(30);
    expect(freed.taken).toBe(a.filter((x) => x.kind === 'go').length);
    expect((await gate.state()).nextSlotInMs).toBeLessThan(1100);
    const granted = a.find((x) => x.kind === 'go');
    if (granted?.kind === 'go') expect(await gate.begin(granted.slot, granted.spacing)).toBe(false);
    // What it still asks for is refused; crawl b keeps its place; a new crawl is served now, in the gap.
    expect(await gate.admit(asking(base, 'crawl-a', 1)[0] as AdmitRequest)).toEqual({ kind: 'ended' });
    const kept = b[0]?.kind === 'reserved' ? b[0].startAt : 0;
    expect(await gate.admit({ ...(asking(base, 'crawl-b', 1)[0] as AdmitRequest), reservedAt: kept })).toEqual({
      kind: 'reserved',
      startAt: kept,
    });
    const c = await gate.admit(asking(base, 'crawl-c', 1)[0] as AdmitRequest);
    expect(c.kind).toBe('go');
    if (c.kind === 'go') expect(c.waitMs).toBeLessThan(1100);
  });

  it('are remembered by a gate that restarts, and a completed crawl may ask again', async () => {
    const base = host(21);
    const gate = () => env.HOSTS.getByName(new URL(base).hostname);
    await gate().admit({ url: `${base}/`, minIntervalMs: 0, maxWaitMs: 1000 }); // robots.txt, not waited for below
    const reserved = await gate().admitMany(asking(base, 'crawl-d', 20, 1000, 0));
    expect(reserved.filter((x) => x.kind === 'reserved')).toHaveLength(19); // the first one starts now
    await evictDurableObject(gate());
    expect((await gate().state()).nextSlotInMs).toBeGreaterThan(15_000);
    expect(await gate().releaseCrawl('crawl-d', false)).toEqual({ booked: 20, taken: 0 });
    expect((await gate().state()).nextSlotInMs).toBe(0);
    expect((await gate().admit(asking(base, 'crawl-d', 1)[0] as AdmitRequest)).kind).toBe('go');
  });
});

describe('a crawl that completes', () => {
  it('gives back the slots a consumer of it reserved and died before reporting', async () => {
    const base = host(24);
    const gate = env.HOSTS.getByName(new URL(base).hostname);
    const ns = namespace();
    const seed = `${base}/t/${ns}/pure-1/`;
    const id = crypto.randomUUID();
    const stub = env.CRAWL.getByName(id);
    await stub.start(id, testConfig({ seeds: [seed], hostIntervalMs: 1000 }));
    // A consumer claims the seed, reserves 20 slots on the host for the crawl's URLs, and dies without a word.
    expect((await stub.claim([seed], ['dead-consumer'])).claims[0]).not.toBeNull();
    // robots.txt: the crawl's start has the gate fetch it ahead, at the crawl's pace; known once this answers.
    await gate.admit({ url: `${base}/`, minIntervalMs: 0, maxWaitMs: 10_000 });
    const orphans = Array.from({ length: 20 }, (_, i) => ({
      url: `${base}/t/${ns}/x${i}`,
      minIntervalMs: 1000,
      maxWaitMs: 0,
      reserve: true,
      crawlId: id,
    }));
    await gate.admitMany(orphans);
    expect((await gate.state()).nextSlotInMs).toBeGreaterThan(15_000);
    // Its lease expires: the sweeper sends the seed again, and a live consumer gets it a slot after those 20.
    await runInDurableObject(stub, (instance) => {
      for (const lease of instance.parts.work.leases.held.values()) lease.until = 1;
    });
    await runDurableObjectAlarm(stub);
    const reservedAt = async () =>
      runInDurableObject(stub, (instance) => instance.parts.seen.find([seed]).get(seed)?.reserved_at ?? null);
    for (let i = 0; i < 100 && (await reservedAt()) === null; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await reservedAt()).toBeGreaterThan(Date.now() + 15_000);

    // The crawl ends (its one URL dead-lettered): completed, it gives back all it held on the host.
    await stub.abandon([{ url: seed, reason: 'dead-lettered', code: 'retries_exhausted' }]);
    expect((await stub.snapshot())?.status).toBe('completed');
    let next = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 50 && next >= 1100; i++) {
      next = (await gate.state()).nextSlotInMs;
      if (next >= 1100) await new Promise((r) => setTimeout(r, 100));
    }
    expect(next).toBeLessThan(1100);
    // A completed crawl may run again (retry-errors): what it asks for is not refused.
    expect((await gate.admit({ ...orphans[0], url: `${base}/t/${ns}/again` } as AdmitRequest)).kind).not.toBe('ended');
  });
});

describe('robots.txt fetched again, with slots booked an hour ahead', () => {
  it('is a request of its own: it does not wait behind the booked slots', async () => {
    const base = host(22);
    const hostname = new URL(base).hostname;
    const gate = env.HOSTS.getByName(hostname);
    await gate.admit({ url: `${base}/`, minIntervalMs: 0, maxWaitMs: 1000 }); // robots.txt, not waited for below
    const booked = Array.from({ length: 60 }, (_, i) => ({
      url: `${base}/booked/p${i}`,
      minIntervalMs: 1000,
      maxWaitMs: 0,
      reserve: true,
      crawlId: 'crawl-e',
    }));
    expect((await gate.admitMany(booked)).filter((x) => x.kind === 'reserved')).toHaveLength(59);
    // Another origin of the host (nothing listens on port 1): its robots.txt is fetched now, not in 60 s.
    const started = Date.now();
    const closed = await gate.admit({ url: `http://${hostname}:1/x`, minIntervalMs: 1000, maxWaitMs: 10_000 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(closed).toMatchObject({ kind: 'unreachable', failure: { kind: 'refused' } });
  });

  it('keeps serving the old rules while they are fetched again, and waits no longer than the budget for new ones', async () => {
    const base = host(23);
    const gate = () => env.HOSTS.getByName(new URL(base).hostname);
    const expire = async () => {
      await runInDurableObject(gate(), (_gate, state) => {
        state.storage.sql.exec('UPDATE robots SET expires_at = ?', Date.now() - 1000);
      });
      await evictDurableObject(gate());
    };
    await putRobots(base, 'User-agent: *\nDisallow: /old\n');
    expect((await gate().admit({ url: `${base}/old/x`, minIntervalMs: 0, maxWaitMs: 1000 })).kind).toBe('disallowed');
    // The rules expire, and robots.txt now hangs until the fetch times out (FETCH_TIMEOUT_MS, 3 s here).
    await expire();
    await putRobots(base, '', { status: 301, location: `${site()}/t/${namespace()}/faults/hang` });
    let started = Date.now();
    expect((await gate().admit({ url: `${base}/old/y`, minIntervalMs: 0, maxWaitMs: 1000 })).kind).toBe('disallowed');
    expect(Date.now() - started).toBeLessThan(1000);
    // Once that fetch has failed, there are no rules to serve: the next fetch is waited for within the budget only.
    await new Promise((r) => setTimeout(r, 4000));
    expect((await gate().state()).robots[0]).toMatchObject({ kind: 'unreachable' });
    await expire();
    started = Date.now();
    expect(await gate().admit({ url: `${base}/old/z`, minIntervalMs: 0, maxWaitMs: 500 })).toMatchObject({
      kind: 'wait',
    });
    expect(Date.now() - started).toBeLessThan(1500);
    await new Promise((r) => setTimeout(r, 3500)); // that fetch ends (timed out) before the test does
  });
});

describe("a crawl's hostIntervalMs below the deployment's floor", () => {
  const post = (path: string, body: unknown) =>
    createApp().fetch(
      new Request(`http://x${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer test-token' },
        body: JSON.stringify(body),
      }),
      { ...env, HOST_MIN_INTERVAL_MS: '1000' },
    );
  const crawl = (hostIntervalMs: number | null) => ({ seeds: ['https://example.com/'], hostIntervalMs });

  it('is refused with a 400 that names the floor (a crawl may only slow down), on crawls and schedules', async () => {
    for (const [path, body] of [
      ['/v1/crawls', crawl(0)],
      ['/v1/crawls', crawl(999)],
      ['/v1/schedules', { everySeconds: 3600, crawl: crawl(0) }],
    ] as const) {
      const res = await post(path, body);
      expect(res.status, path).toBe(400);
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('invalid_request');
      expect(error.message).toContain('HOST_MIN_INTERVAL_MS');
      expect(error.message).toContain('1000 ms');
    }
  });

  it('is an issue of the request when checked, and the floor or more is valid', async () => {
    const refused = (await (await post('/v1/crawls/validate', crawl(0))).json()) as {
      valid: boolean;
      issues: { path: string[] }[];
    };
    expect(refused).toMatchObject({ valid: false, issues: [{ path: ['hostIntervalMs'] }] });
    for (const hostIntervalMs of [null, 1000, 5000])
      expect(await (await post('/v1/crawls/validate', crawl(hostIntervalMs))).json()).toMatchObject({ valid: true });
  });
});
