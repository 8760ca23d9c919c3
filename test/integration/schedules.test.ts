import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { runDueSchedules } from '../../src/jobs/schedules';
import { api, createCrawl, namespace, site, waitForCrawl } from '../support/api';

async function errorCode(res: Response): Promise<[number, string]> {
  return [res.status, ((await res.json()) as { error: { code: string } }).error.code];
}

describe('schedules API', () => {
  it('validates: exactly one of cron or everySeconds, a valid cron, a valid crawl', async () => {
    const crawl = { seeds: ['https://example.com/'] };
    for (const body of [
      { crawl },
      { cron: '* * * * *', everySeconds: 3600, crawl },
      { cron: '61 * * * *', crawl },
      { cron: 'every day', crawl },
      { everySeconds: 10, crawl },
      { everySeconds: 3600 },
      { everySeconds: 3600, crawl: { seeds: ['ftp://x/'] } },
      { everySeconds: 3600, crawl, extra: 1 },
    ]) {
      const res = await api('/v1/schedules', { method: 'POST', body: JSON.stringify(body) });
      expect(await errorCode(res), JSON.stringify(body)).toEqual([400, 'invalid_request']);
    }
    expect((await api('/v1/schedules', { method: 'POST', body: '{' })).status).toBe(400);
    expect((await api('/v1/schedules', { token: null })).status).toBe(401);
  });

  it('creates, lists, reads and deletes; a cron schedule runs at its next matching minute', async () => {
    const res = await api('/v1/schedules', {
      method: 'POST',
      body: JSON.stringify({ cron: '0 0 1 1 *', crawl: { seeds: ['https://example.com/'] } }),
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; nextRunAt: string; crawl: { scope: string } };
    expect(new Date(created.nextRunAt).getUTCMonth()).toBe(0);
    expect(new Date(created.nextRunAt).getUTCDate()).toBe(1);
    expect(created.crawl.scope).toBe('same-host');
    const list = (await (await api('/v1/schedules')).json()) as { schedules: { id: string }[] };
    expect(list.schedules.map((s) => s.id)).toContain(created.id);
    expect((await api(`/v1/schedules/${created.id}`)).status).toBe(200);
    expect((await api(`/v1/schedules/${created.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await api(`/v1/schedules/${created.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await api(`/v1/schedules/${created.id}`)).status).toBe(404);
  });
});

describe('scheduled recrawls', () => {
  it('send conditional requests, write no new bodies for unchanged pages, and report what changed', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/cond-5/`;
    const created = (await (
      await api('/v1/schedules', {
        method: 'POST',
        body: JSON.stringify({ everySeconds: 3600, crawl: { seeds: [root] } }),
      })
    ).json()) as {
      id: string;
    };
    const runOnce = async () => {
      await env.DB.prepare('UPDATE schedules SET next_run_at = 0 WHERE id = ?').bind(created.id).run();
      const started = await runDueSchedules(env);
      const row = await env.DB.prepare('SELECT last_crawl_id FROM schedules WHERE id = ?')
        .bind(created.id)
        .first<{ last_crawl_id: string }>();
      expect(started).toContain(row?.last_crawl_id);
      return row?.last_crawl_id as string;
    };
    // Every run reaches all it finds: nothing unreached, and once ended the figures are final.
    const FINAL = { unreached: 0, unreachedBefore: 0, provisional: false };
    const changesOf = async (id: string) =>
      ((await (await api(`/v1/crawls/${id}`)).json()) as { changes: Record<string, number> }).changes;
    // Bodies written for a crawl: the pages its R2 segments hold.
    const bodiesOf = async (id: string) =>
      (await env.BODIES.list({ prefix: `crawls/${id}/`, include: ['customMetadata'] })).objects.reduce(
        (sum, o) => sum + Number(o.customMetadata?.pages ?? 0),
        0,
      );

    // First run: everything is new.
    const first = await runOnce();
    expect((await waitForCrawl(first)).counts.stored).toBe(6);
    expect(await changesOf(first)).toEqual({ new: 6, changed: 0, unchanged: 0, gone: 0, ...FINAL });
    expect(await bodiesOf(first)).toBe(6);

    // Second run of an unchanged site: every request conditional, every answer 304, no body written.
    const second = await runOnce();
    expect((await waitForCrawl(second)).counts).toMatchObject({ discovered: 6, stored: 6, failed: 0 });
    expect(await changesOf(second)).toEqual({ new: 0, changed: 0, unchanged: 6, gone: 0, ...FINAL });
    expect(await bodiesOf(second)).toBe(0);
    const log = (await (await fetch(`${site()}/__cond/${ns}`)).json()) as {
      path: string;
      ifNoneMatch: string | null;
      ifModifiedSince: string | null;
      status: number;
    }[];
    const secondRun = log.slice(6);
    expect(secondRun).toHaveLength(6);
    expect(
      secondRun.every(
        (e) => e.ifNoneMatch !== null && e.ifModifiedSince === 'Wed, 01 Jul 2026 00:00:00 GMT' && e.status === 304,
      ),
    ).toBe(true);
    // The unchanged page still serves its body, from the version that was stored.
    const content = await api(`/v1/crawls/${second}/content?url=${encodeURIComponent(`${root}p1.html`)}`);
    expect(await content.text()).toContain('page 1');

    // The site changes: p2's <title> changed, p3 gone, p6 new (and the root, which now links to p6, changed). p2 is
    // fetched again (its ETag changed) but its text did not change: unchanged (pages are compared by their text).
    await fetch(`${site()}/__bump/${ns}`, { method: 'PUT' });
    const third = await runOnce();
    const crawl = await waitForCrawl(third);
    expect(crawl.counts).toMatchObject({ discovered: 7, stored: 6, failed: 1 });
    expect(await changesOf(third)).toEqual({ new: 1, changed: 1, unchanged: 4, gone: 1, ...FINAL });
    // The crawl list shows a scheduled run's change counts too, as counted when it ended (it showed none).
    const list = (await (await api('/v1/crawls?limit=100')).json()) as { crawls: { id: string; changes: unknown }[] };
    expect(list.crawls.find((c) => c.id === third)?.changes).toEqual(await changesOf(third));
    expect(await bodiesOf(third)).toBe(3);
    const changed = await api(`/v1/crawls/${third}/content?url=${encodeURIComponent(`${root}p2.html`)}`);
    expect(await changed.text()).toContain('Cond 2 changed');

    // Which pages: what changed by default, each kind on its own, paged in URL order.
    const listed = async (query: string) =>
      (await (await api(`/v1/crawls/${third}/changes${query}`)).json()) as {
        previousCrawlId: string;
        changes: { url: string; kind: string }[];
        cursor: string | null;
      };
    const all = await listed('');
    expect(all.previousCrawlId).toBe(second);
    expect(all.changes.map((p) => `${p.kind} ${p.url.slice(root.length)}`)).toEqual([
      'changed ',
      'gone p3.html',
      'new p6.html',
    ]);
    expect((await listed('?kind=unchanged')).changes).toHaveLength(4);
    const firstPage = await listed('?limit=2');
    expect(firstPage.changes).toHaveLength(2);
    expect((await listed(`?limit=2&cursor=${firstPage.cursor}`)).changes.map((p) => p.kind)).toEqual(['new']);
    expect((await listed('?kind=moved')).changes).toBeUndefined();
    const notRecrawl = await api(`/v1/crawls/${await createCrawl({ seeds: [`${root}p1.html`], maxDepth: 0 })}/changes`);
    expect(notRecrawl.status).toBe(409);
  });
});

describe('the cron trigger', () => {
  it('starts due schedules, once, and sets their next run', async () => {
    const ns = namespace();
    const created = (await (
      await api('/v1/schedules', {
        method: 'POST',
        body: JSON.stringify({ everySeconds: 600, crawl: { seeds: [`${site()}/t/${ns}/pure-1/`] } }),
      })
    ).json()) as { id: string };
    const before = Date.now();
    // Two overlapping invocations: the run is taken once.
    await Promise.all(
      [0, 1].map(async () => {
        const ctx = createExecutionContext();
        await worker.scheduled(createScheduledController({ cron: '* * * * *', scheduledTime: new Date() }), env, ctx);
        await waitOnExecutionContext(ctx);
      }),
    );
    const row = await env.DB.prepare('SELECT last_crawl_id, next_run_at FROM schedules WHERE id = ?')
      .bind(created.id)
      .first<{ last_crawl_id: string; next_run_at: number }>();
    expect(row?.next_run_at).toBeGreaterThanOrEqual(before + 600_000);
    const crawls = await env.DB.prepare('SELECT id FROM crawls WHERE schedule_id = ?')
      .bind(created.id)
      .all<{ id: string }>();
    expect(crawls.results.map((c) => c.id)).toEqual([row?.last_crawl_id]);
    expect((await waitForCrawl(row?.last_crawl_id as string)).counts.stored).toBe(2);
    // The crawl list says which schedule a run came from, and when it ended.
    const listed = (await (await api('/v1/crawls?limit=100')).json()) as {
      crawls: { id: string; scheduleId: string | null; finishedAt: string | null }[];
    };
    const run = listed.crawls.find((c) => c.id === row?.last_crawl_id);
    expect(run).toMatchObject({ scheduleId: created.id, finishedAt: expect.any(String) });
    expect(listed.crawls.some((c) => c.scheduleId === null)).toBe(true);
    await api(`/v1/schedules/${created.id}`, { method: 'DELETE' });
  });
});
