import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { failureCode, type OutcomeCode } from '../../src/domain/crawl/outcome-codes';
import { reasonKind } from '../../src/domain/crawl/reasons';
import { classifyResponse } from '../../src/domain/fetch/classify';
import { classifyFetchError } from '../../src/domain/fetch/failure';
import { codeBreakdown, listErrors } from '../../src/storage/d1/errors';
import { allPages, api, createCrawl, namespace, site, waitForCrawl } from '../support/api';

interface Stats {
  id: string;
  status: string;
  counts: { discovered: number; fetched: number; stored: number; failed: number; skipped: number };
  rate: { windowSeconds: number; pagesPerSecond: number; averagePagesPerSecond: number };
  interval: number;
  series: { at: string; fetched: number; failed: number }[];
  statuses: { status: number; count: number }[];
  errors: { outcome: string; reason: string; count: number }[];
  errorKinds: { outcome: string; kind: string; count: number }[];
  errorCodes: { outcome: string; code: string; count: number }[];
  hosts: { host: string; pages: number }[];
}

describe('crawl stats, hosts and recent pages', () => {
  it('groups errors by kind of reason: one row for every redirect, whatever its target', async () => {
    const id = await createCrawl({ seeds: [`${site()}/t/${namespace()}/misc/`] });
    await waitForCrawl(id);
    const stats = (await (await api(`/v1/crawls/${id}/stats`)).json()) as Stats;
    const errors = (await (await api(`/v1/crawls/${id}/errors?limit=1000`)).json()) as {
      errors: { outcome: string; reason: string }[];
    };
    // The same grouping, done here from the listed errors.
    const expected = new Map<string, number>();
    for (const e of errors.errors)
      expected.set(
        `${e.outcome} ${reasonKind(e.reason)}`,
        (expected.get(`${e.outcome} ${reasonKind(e.reason)}`) ?? 0) + 1,
      );
    expect(new Map(stats.errorKinds.map((k) => [`${k.outcome} ${k.kind}`, k.count]))).toEqual(expected);
    const redirects = errors.errors.filter((e) => /^redirect \d{3} to /.test(e.reason));
    expect(new Set(redirects.map((e) => e.reason)).size).toBeGreaterThan(1);
    expect(stats.errorKinds.filter((k) => k.kind === 'redirect' && k.outcome === 'skipped')).toEqual([
      { outcome: 'skipped', kind: 'redirect', count: redirects.length },
    ]);
    expect(stats.errorKinds).toContainEqual({ outcome: 'failed', kind: 'http 404', count: 1 });
    expect(stats.errorKinds.map((k) => k.count)).toEqual(
      [...stats.errorKinds.map((k) => k.count)].sort((a, b) => b - a),
    );
  });

  it('groups errors by code, the same when the words of their reasons change', async () => {
    const id = await createCrawl({ seeds: [`${site()}/t/${namespace()}/misc/`] });
    await waitForCrawl(id);
    const stats = (await (await api(`/v1/crawls/${id}/stats`)).json()) as Stats;
    const { errors } = (await (await api(`/v1/crawls/${id}/errors?limit=1000`)).json()) as {
      errors: { outcome: string; reason: string; code: string }[];
    };
    // The same grouping, done here from the listed errors, each with its code.
    const expected = new Map<string, number>();
    for (const e of errors) expected.set(`${e.outcome} ${e.code}`, (expected.get(`${e.outcome} ${e.code}`) ?? 0) + 1);
    expect(new Map(stats.errorCodes.map((c) => [`${c.outcome} ${c.code}`, c.count]))).toEqual(expected);
    expect(stats.errorCodes).toContainEqual({ outcome: 'failed', code: 'http_4xx', count: 1 });
    const redirects = errors.filter((e) => /^redirect \d{3} to /.test(e.reason) && !e.reason.endsWith('out of scope'));
    expect(redirects.length).toBeGreaterThan(1);
    expect(stats.errorCodes).toContainEqual({ outcome: 'skipped', code: 'redirect', count: redirects.length });
    expect(stats.errorCodes.reduce((n, c) => n + c.count, 0)).toBe(errors.length);
    expect(stats.errorCodes.map((c) => c.count)).toEqual(
      [...stats.errorCodes.map((c) => c.count)].sort((a, b) => b - a),
    );

    // Every message reworded (as a later version of the crawler might word them): /stats by code does not move.
    await env.DB.prepare("UPDATE errors SET reason = 'reworded, ' || upper(reason) WHERE crawl_id = ?").bind(id).run();
    const after = (await (await api(`/v1/crawls/${id}/stats`)).json()) as Stats;
    expect(after.errors.every((e) => e.reason.startsWith('reworded, '))).toBe(true);
    expect(after.errorCodes).toEqual(stats.errorCodes);
  });

  it('gives rows written before codes were stored theirs once, from their words (migrations/0013, 0017)', async () => {
    const crawlId = crypto.randomUUID();
    const fail = (status: number, headers: Record<string, string> = {}) => {
      const decision = classifyResponse(status, new Headers(headers));
      if (decision.kind !== 'fail' && decision.kind !== 'retry') throw new Error(`no failure for ${status}`);
      return [decision.reason, decision.code] as const;
    };
    const network = (message: string, context: Parameters<typeof classifyFetchError>[1]) => {
      const failure = classifyFetchError(message, context);
      return [failure.message, failureCode(failure.kind)] as const;
    };
    const host = { host: '127.0.0.1', port: 80 };
    // Reasons as the crawler made them, with the codes it now makes with them.
    const made: (readonly [string, OutcomeCode])[] = [
      fail(404),
      fail(410),
      fail(429),
      fail(503),
      fail(302),
      network('getaddrinfo ENOTFOUND x.invalid', { aborted: false, host: 'x.invalid' }),
      network('connect ECONNREFUSED', { aborted: false, ...host }),
      network('Network connection lost.', { aborted: false, connects: true, ...host }),
      network('internal error; reference = x', { aborted: false, connects: true, tls: true, ...host, port: 443 }),
      network('', { aborted: true, host: 'a.test', timeoutMs: 3000 }),
      network('something odd', { aborted: false, host: 'a.test' }),
      ['blocked by robots.txt', 'robots_disallowed'],
      ['blocked: private network address', 'private_address'],
      ['robots.txt answered http 503', 'robots_unreachable'],
      ['robots.txt timed out', 'robots_unreachable'],
      ['robots.txt unreachable: reset: connection lost (a:80)', 'robots_unreachable'],
      ['body larger than 10485760 bytes', 'too_large'],
      ['redirect 301 to https://a.test/x', 'redirect'],
      ['redirect 302 to https://b.test/y, out of scope', 'redirect_out_of_scope'],
      ['redirect to a non-http(s) URL: file:///etc/passwd', 'redirect_invalid'],
      ['too many redirects (more than 5)', 'too_many_redirects'],
      ['sitemap: body larger than 10 bytes', 'sitemap_unreadable'],
      ['action 2 of 3 (click #x) failed: no such element', 'action_failed'],
      ['the page could not be rendered, so its action was not done: render: boom', 'render_failed'],
      ['cancelled', 'cancelled'],
      ['dead-lettered: retries exhausted', 'retries_exhausted'],
      ['retries exhausted', 'retries_exhausted'],
      ['something no version of the crawler said', 'other'],
    ];
    await env.DB.batch(
      made.map(([reason], i) =>
        env.DB.prepare(
          "INSERT INTO errors (crawl_id, url, outcome, reason, attempts, http_status, at) VALUES (?, ?, 'failed', ?, 1, NULL, 0)",
        ).bind(crawlId, `https://a.test/${String(i).padStart(2, '0')}`, reason),
      ),
    );
    // A row without a code reads as 'other' until the migration gives it one.
    expect(await codeBreakdown(env.DB, crawlId)).toEqual([{ outcome: 'failed', code: 'other', count: made.length }]);
    const legacy = env.TEST_MIGRATIONS.filter((m) => m.name.startsWith('0013_') || m.name.startsWith('0017_')).flatMap(
      (m) => m.queries.filter((q) => q.includes('UPDATE errors SET code')),
    );
    expect(legacy).toHaveLength(3);
    for (const query of legacy) await env.DB.prepare(query).run();
    const rows = await listErrors(env.DB, crawlId, 100, null, null);
    expect(rows.map((r) => [r.reason, r.code])).toEqual(made);
    // Rows written with the codes of before 0017: a refused credential and a last 429 get the codes split off.
    const before = crypto.randomUUID();
    const refused = 'credentials refused: http 403 (the session expired, or they do not reach this page)';
    await env.DB.batch(
      [
        ['https://a.test/r', refused, 'auth_required', 403],
        ['https://a.test/s', 'http 401', 'auth_required', 401],
        ['https://a.test/t', 'http 429', 'http_4xx', 429],
        ['https://a.test/u', 'http 404', 'http_4xx', 404],
      ].map((row) =>
        env.DB.prepare(
          "INSERT INTO errors (crawl_id, url, outcome, reason, code, attempts, http_status, at) VALUES (?, ?, 'failed', ?, ?, 1, ?, 0)",
        ).bind(before, ...row),
      ),
    );
    for (const query of legacy.slice(1)) await env.DB.prepare(query).run();
    const split = await listErrors(env.DB, before, 100, null, null);
    expect(split.map((r) => r.code)).toEqual(['credentials_refused', 'auth_required', 'rate_limited', 'http_4xx']);
  });

  it('reports a time series and breakdowns that add up to the pages and errors listed', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/misc/`;
    const id = await createCrawl({ seeds: [root] });
    await waitForCrawl(id);

    const res = await api(`/v1/crawls/${id}/stats`);
    expect(res.status).toBe(200);
    const stats = (await res.json()) as Stats;
    expect(stats).toMatchObject({
      id,
      status: 'completed',
      counts: { discovered: 19, fetched: 20, stored: 6, failed: 3, skipped: 10 },
    });
    // Every page row lands in exactly one interval, every failed URL too.
    const pages = await allPages(id);
    expect(stats.series.reduce((n, b) => n + b.fetched, 0)).toBe(pages.length);
    expect(stats.series.reduce((n, b) => n + b.failed, 0)).toBe(3);
    const times = stats.series.map((b) => Date.parse(b.at));
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBe(stats.interval * 1000);
    expect(stats.rate.pagesPerSecond).toBe(0); // over: no current rate
    expect(stats.rate.averagePagesPerSecond).toBeGreaterThan(0);

    const byStatus = new Map(stats.statuses.map((s) => [s.status, s.count]));
    expect(stats.statuses.reduce((n, s) => n + s.count, 0)).toBe(pages.length);
    expect(byStatus.get(404)).toBe(1);
    expect(byStatus.get(200)).toBe(pages.filter((p) => p.status === 200).length);
    expect(stats.errors.reduce((n, e) => n + e.count, 0)).toBe(13);
    expect(stats.errors).toContainEqual({ outcome: 'failed', reason: 'http 404', count: 1 });
    // Same host name, two ports (other-port.html is on the second site): one host, as politeness keeps it.
    expect(new Set(pages.map((p) => new URL(p.url).port)).size).toBe(2);
    expect(stats.hosts).toEqual([{ host: new URL(root).hostname, pages: pages.length }]);
    // /hosts names and counts it the same.
    const { hosts } = (await (await api(`/v1/crawls/${id}/hosts`)).json()) as {
      hosts: { host: string; pages: number }[];
    };
    expect(hosts.map(({ host, pages }) => ({ host, pages }))).toEqual(stats.hosts);

    // A chosen interval, and bad queries.
    const fine = (await (await api(`/v1/crawls/${id}/stats?interval=1&window=5`)).json()) as Stats;
    expect(fine.interval).toBe(1);
    expect(fine.rate.windowSeconds).toBe(5);
    expect(fine.series.reduce((n, b) => n + b.fetched, 0)).toBe(pages.length);
    for (const query of ['interval=0', 'interval=x', 'window=0', 'bogus=1'])
      expect((await api(`/v1/crawls/${id}/stats?${query}`)).status, query).toBe(400);
    expect((await api(`/v1/crawls/${crypto.randomUUID()}/stats`)).status).toBe(404);
    expect((await api(`/v1/crawls/${id}/stats`, { token: null })).status).toBe(401);
  });

  it('shows the politeness state of the crawl hosts', async () => {
    const ns = namespace();
    // A host of its own: the host gate is shared by every crawl, and others crawling the shared host have requests in
    // flight there at any moment.
    const root = `${inject('hosts')[27] as string}/t/${ns}/pure-5/`;
    const id = await createCrawl({ seeds: [root] });
    await waitForCrawl(id);
    const res = await api(`/v1/crawls/${id}/hosts`);
    expect(res.status).toBe(200);
    const { hosts } = (await res.json()) as {
      hosts: {
        host: string;
        pages: number;
        inflight: number;
        requests: number;
        robots: { origin: string; kind: string }[];
      }[];
    };
    expect(hosts).toHaveLength(1);
    expect(hosts[0]).toMatchObject({ host: new URL(root).hostname, pages: 6, inflight: 0 });
    expect(hosts[0]!.requests).toBeGreaterThanOrEqual(6);
    expect(hosts[0]!.robots.map((r) => r.origin)).toContain(new URL(root).origin);
  });

  it('lists pages most recent first, paginated without gaps or repeats', async () => {
    const ns = namespace();
    const id = await createCrawl({ seeds: [`${site()}/t/${ns}/pure-12/`] });
    await waitForCrawl(id);
    const seen: { url: string; fetchedAt: string }[] = [];
    let cursor: string | null = null;
    do {
      const res = await api(`/v1/crawls/${id}/pages?order=recent&limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { pages: { url: string; fetchedAt: string }[]; cursor: string | null };
      seen.push(...body.pages);
      cursor = body.cursor;
    } while (cursor);
    const all = await allPages(id);
    expect(seen.map((p) => p.url).sort()).toEqual(all.map((p) => p.url));
    for (let i = 1; i < seen.length; i++)
      expect(Date.parse(seen[i - 1]!.fetchedAt)).toBeGreaterThanOrEqual(Date.parse(seen[i]!.fetchedAt));
    expect((await api(`/v1/crawls/${id}/pages?order=oldest`)).status).toBe(400);
    // A cursor of the URL order is not one of the recent order.
    const byUrl = (await (await api(`/v1/crawls/${id}/pages?limit=1`)).json()) as { cursor: string };
    expect((await api(`/v1/crawls/${id}/pages?order=recent&cursor=${byUrl.cursor}`)).status).toBe(400);
  });

  it('retry-errors with urls retries just those that failed', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/misc/`;
    const id = await createCrawl({ seeds: [root] });
    await waitForCrawl(id);
    const res = await api(`/v1/crawls/${id}/retry-errors`, {
      method: 'POST',
      body: JSON.stringify({ urls: [`${root}missing.html`, `${root}ok.html`] }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, retried: 1, remaining: 2 });
    const after = await waitForCrawl(id);
    expect(after.counts.failed).toBe(3);
    expect(
      (await api(`/v1/crawls/${id}/retry-errors`, { method: 'POST', body: JSON.stringify({ urls: ['not a url'] }) }))
        .status,
    ).toBe(400);
    expect(
      (await api(`/v1/crawls/${id}/retry-errors`, { method: 'POST', body: JSON.stringify({ urls: [] }) })).status,
    ).toBe(400);
  });
});
