import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { SCHEMA } from '../../src/objects/crawl/seen-set';
import type { CrawlConfig, FrontierEntry } from '../../src/types';
import { namespace, site, siteLog } from '../support/api';
import { insertCrawlRow, testConfig } from '../support/fixtures';

const config = testConfig;

async function startedCoordinator(overrides: Partial<CrawlConfig> = {}) {
  const id = crypto.randomUUID();
  const stub = env.CRAWL.getByName(id);
  const seeds = await stub.start(id, config(overrides));
  return { id, stub, seeds };
}

/** Ages every queued URL's message past the re-send threshold: `urls` rows, and the entries the log holds. */
const age = (sql: SqlStorage) => {
  sql.exec('UPDATE urls SET enqueued_at = 0');
  sql.exec(
    "UPDATE log SET offered = (SELECT json_group_array(json_set(value, '$[4]', 0)) FROM json_each(log.offered))",
  );
};

const entry = (i: number, depth = 1): FrontierEntry => ({ url: `https://example.com/p${i}`, depth, hops: 0 });

/** Offers URLs to a crawl's seen-set from inside its Durable Object, as complete() does with the links it is given. */
const offer = (id: string, entries: FrontierEntry[], maxPages: number | null = null) =>
  runInDurableObject(env.CRAWL.getByName(id), (instance) => {
    const { accepted } = instance.parts.work.offer({ maxPages, maxPagesPerHost: null, traps: null }, entries);
    instance.parts.ledger.save();
    return accepted;
  });

describe('the crawl Durable Object as an atomic seen-set', () => {
  it('accepts each URL once when 50 callers offer overlapping sets at the same time', async () => {
    const { id, seeds } = await startedCoordinator();
    expect(seeds).toEqual([{ url: 'https://example.com/', depth: 0, hops: 0 }]);
    // 50 callers, each with its own stub, each offering 60 URLs out of a pool of 300.
    const calls = Array.from({ length: 50 }, (_, c) => {
      const batch = Array.from({ length: 60 }, (_, k) => entry((c * 37 + k * 11) % 300));
      return offer(id, batch);
    });
    const accepted = (await Promise.all(calls)).flat().map((e) => e.url);
    const offered = new Set(
      Array.from({ length: 50 }, (_, c) =>
        Array.from({ length: 60 }, (_, k) => entry((c * 37 + k * 11) % 300).url),
      ).flat(),
    );
    expect(accepted.length).toBe(offered.size);
    expect(new Set(accepted)).toEqual(offered);
    const snapshot = await env.CRAWL.getByName(id).snapshot();
    expect(snapshot?.counts.discovered).toBe(offered.size + 1);
    expect(snapshot?.pending).toBe(offered.size + 1);
  });

  it('hands a URL to exactly one of many racing claims', async () => {
    const { id } = await startedCoordinator();
    const claims = await Promise.all(
      Array.from({ length: 40 }, () => env.CRAWL.getByName(id).claim(['https://example.com/'])),
    );
    const winners = claims.filter((c) => c.claims[0] !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]?.claims[0]).toEqual({ depth: 0, hops: 0, kind: 'page', attempts: 1 });
  });

  it('leases a URL to the message that claimed it: its redelivery gets it back, another message does not', async () => {
    const { stub } = await startedCoordinator();
    const url = 'https://example.com/';
    expect((await stub.claim([url], ['m1'])).claims[0]?.attempts).toBe(1);
    expect((await stub.claim([url], ['m2'])).claims[0]).toBeNull();
    // m1 delivered again (its consumer died before reporting): the next attempt, still m1's.
    expect((await stub.claim([url], ['m1'])).claims[0]?.attempts).toBe(2);
    expect((await stub.claim([url], ['m2'])).claims[0]).toBeNull();
  });

  it('never exceeds maxPages however the offers interleave', async () => {
    const { id } = await startedCoordinator({ maxPages: 50 });
    const calls = Array.from({ length: 20 }, (_, c) =>
      offer(
        id,
        Array.from({ length: 10 }, (_, k) => entry(c * 10 + k)),
        50,
      ),
    );
    const accepted = (await Promise.all(calls)).flat();
    expect(accepted).toHaveLength(49); // the seed is the 50th
    expect((await env.CRAWL.getByName(id).snapshot())?.counts.discovered).toBe(50);
  });

  it('records outcomes once: a late duplicate completion is ignored', async () => {
    const { id, stub } = await startedCoordinator();
    await stub.claim(['https://example.com/']);
    const first = await stub.complete([
      { url: 'https://example.com/', kind: 'stored', fetched: true, links: [entry(1), entry(2), entry(1)] },
    ]);
    expect(first.accepted.map((e) => e.url)).toEqual(['https://example.com/p1', 'https://example.com/p2']);
    // Stored now: its page.stored event is sent once, not again for the late duplicate.
    expect(first.stored).toEqual(['https://example.com/']);
    const again = await stub.complete([
      { url: 'https://example.com/', kind: 'stored', fetched: true, links: [entry(3)] },
    ]);
    expect(again.accepted).toEqual([]);
    expect(again.stored).toEqual([]);
    expect((await env.CRAWL.getByName(id).snapshot())?.counts).toEqual({
      discovered: 3,
      fetched: 1,
      stored: 1,
      failed: 0,
      skipped: 0,
      duplicates: 0,
    });
  });

  it('a retry hands the URL back; the next claim counts the attempt; completion comes when nothing is pending', async () => {
    const { stub } = await startedCoordinator();
    await stub.claim(['https://example.com/']);
    await stub.complete([
      { url: 'https://example.com/', kind: 'retry', fetched: true, reason: 'http 503', code: 'http_5xx' },
    ]);
    const second = await stub.claim(['https://example.com/']);
    expect(second.claims[0]?.attempts).toBe(2);
    const done = await stub.complete([
      { url: 'https://example.com/', kind: 'failed', fetched: true, reason: 'http 503', code: 'http_5xx' },
    ]);
    expect(done.status).toBe('completed');
    expect((await stub.snapshot())?.counts).toEqual({
      discovered: 1,
      fetched: 2,
      stored: 0,
      failed: 1,
      skipped: 0,
      duplicates: 0,
    });
    // Nothing is handed out once the crawl is over.
    expect((await stub.claim(['https://example.com/'])).claims).toEqual([null]);
  });

  it('abandon marks dead-lettered URLs failed, once', async () => {
    const { stub } = await startedCoordinator();
    await stub.claim(['https://example.com/']);
    expect(
      await stub.abandon([{ url: 'https://example.com/', reason: 'dead-lettered', code: 'retries_exhausted' }]),
    ).toEqual([{ url: 'https://example.com/', attempts: 1 }]);
    expect(
      await stub.abandon([{ url: 'https://example.com/', reason: 'dead-lettered', code: 'retries_exhausted' }]),
    ).toEqual([]);
    const snapshot = await stub.snapshot();
    expect(snapshot?.status).toBe('completed');
    expect(snapshot?.counts.failed).toBe(1);
  });

  it('start is idempotent', async () => {
    const { id, stub } = await startedCoordinator();
    expect(await stub.start(id, config())).toEqual([]);
    expect((await stub.snapshot())?.counts.discovered).toBe(1);
  });
});

describe('the sweeper (Durable Object alarm)', () => {
  it('re-sends URLs whose message was lost, and the crawl then completes', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/pure-7/`;
    const id = crypto.randomUUID();
    await insertCrawlRow(id, config({ seeds: [root] }));
    const stub = env.CRAWL.getByName(id);
    // Started, but the seed's message is never sent: as if the Worker died right after start().
    await stub.start(id, config({ seeds: [root] }));
    await new Promise((r) => setTimeout(r, 500));
    expect(await siteLog(ns)).toEqual([]);
    // Age the queued row past the re-send threshold, then fire the alarm.
    await runInDurableObject(stub, (_instance, state) => {
      age(state.storage.sql);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const deadline = Date.now() + 30_000;
    while ((await stub.snapshot())?.status !== 'completed' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    expect((await stub.snapshot())?.counts).toMatchObject({ discovered: 8, stored: 8 });
    expect(await siteLog(ns)).toHaveLength(8);
    const row = await env.DB.prepare('SELECT status FROM crawls WHERE id = ?').bind(id).first<{ status: string }>();
    expect(row?.status).toBe('completed');
  });

  it('completes a crawl whose last URL a consumer stored but never reported: the sweep records it stored', async () => {
    const url = `https://example.com/${crypto.randomUUID()}`;
    const id = crypto.randomUUID();
    await insertCrawlRow(id, config({ seeds: [url] }));
    const stub = env.CRAWL.getByName(id);
    await stub.start(id, config({ seeds: [url] }));
    // The consumer stored the page (its row and body) and died before it reported to the coordinator.
    await env.DB.prepare(
      "INSERT INTO pages (crawl_id, url, status, content_type, depth, bytes, fetched_at, r2_key, body_offset, body_length) VALUES (?, ?, 200, 'text/html', 0, 10, ?, 'seg/x', 0, 10)",
    )
      .bind(id, url, Date.now())
      .run();
    await runInDurableObject(stub, (_instance, state) => {
      age(state.storage.sql);
    });
    await runDurableObjectAlarm(stub);
    const snapshot = await stub.snapshot();
    expect(snapshot?.counts).toMatchObject({ discovered: 1, stored: 1 });
    expect(snapshot?.pending).toBe(0);
    expect(snapshot?.status).toBe('completed');
  });

  it('hands out a URL again once its lease has expired (its consumer died)', async () => {
    const { stub } = await startedCoordinator();
    expect((await stub.claim(['https://example.com/'])).claims[0]).not.toBeNull();
    expect((await stub.claim(['https://example.com/'])).claims[0]).toBeNull();
    await runInDurableObject(stub, (instance) => {
      for (const lease of instance.parts.work.leases.held.values()) lease.until = 1;
    });
    expect((await stub.claim(['https://example.com/'])).claims[0]?.attempts).toBe(2);
  });

  it("measures an ended crawl's reach from its URLs' outcome codes, never from their reasons' words", async () => {
    const ended = async (code: 'credentials_refused' | 'http_4xx' | 'trap', reason: string) => {
      const { stub } = await startedCoordinator();
      await stub.claim(['https://example.com/']);
      await stub.complete([{ kind: 'failed', url: 'https://example.com/', fetched: true, reason, code }]);
      return (await stub.summary())?.reach?.cuts;
    };
    // A refused credential worded as a redirect is still a page kept back; a 404 worded oddly is still an answer.
    expect(await ended('credentials_refused', 'redirect 301 to https://example.com/elsewhere')).toEqual(['unread']);
    expect(await ended('http_4xx', 'credentials refused: the words of another kind')).toEqual([]);
    expect(await ended('trap', 'trap: repeated path segments (/a/a/a/)')).toEqual(['traps']);
  });

  it('gives the URLs a crawl ended before codes were kept theirs once, from their words (schema step 7)', async () => {
    const { stub } = await startedCoordinator();
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      const rows: [string, string][] = [
        ['http 404', 'http_4xx'],
        ['http 429', 'rate_limited'],
        ['http 401', 'auth_required'],
        ['credentials refused: http 403 (the session expired)', 'credentials_refused'],
        ['login page: redirect 302 to https://a.test/login (expired)', 'login_redirect'],
        ['redirect 301 to https://a.test/b', 'redirect'],
        ['blocked by robots.txt', 'robots_disallowed'],
        ['timeout after 15000 ms', 'other'],
      ];
      rows.forEach(([reason], i) =>
        sql.exec(
          'INSERT INTO urls (url, depth, hops, state, enqueued_at, reason) VALUES (?, 1, 0, 3, 0, ?)',
          `https://old.test/${i}`,
          reason,
        ),
      );
      const step = SCHEMA[6];
      if (typeof step !== 'string') throw new Error('step 7 is SQL');
      sql.exec(step.slice(step.indexOf('UPDATE')));
      const codes = sql
        .exec<{ reason: string; code: string }>("SELECT reason, code FROM urls WHERE url LIKE 'https://old.test/%'")
        .toArray()
        .map((r): [string, string] => [r.reason, r.code]);
      expect(new Map(codes)).toEqual(new Map(rows));
    });
  });
});
