import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { runHousekeeping } from '../../src/jobs/purge';
import { runDueSchedules } from '../../src/jobs/schedules';
import { api, createCrawl, getCrawl, namespace, site, waitForCrawl } from '../support/api';
import { testConfig } from '../support/fixtures';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

async function objectKeys(crawlId: string): Promise<string[]> {
  return (await env.BODIES.list({ prefix: `crawls/${crawlId}/` })).objects.map((o) => o.key);
}

async function d1Rows(crawlId: string): Promise<Record<string, number>> {
  const count = async (sql: string) => (await env.DB.prepare(sql).bind(crawlId).first<{ n: number }>())?.n ?? -1;
  return {
    crawls: await count('SELECT COUNT(*) AS n FROM crawls WHERE id = ?'),
    pages: await count('SELECT COUNT(*) AS n FROM pages WHERE crawl_id = ?'),
    errors: await count('SELECT COUNT(*) AS n FROM errors WHERE crawl_id = ?'),
    // A page's links are in R2; D1 holds only where they are (the links table is gone, migration 0007).
    links: await count('SELECT COUNT(*) AS n FROM pages WHERE crawl_id = ? AND links_key IS NOT NULL'),
  };
}

/** What the crawl's Durable Object holds: its SQLite tables and its alarm. */
async function objectStorage(crawlId: string): Promise<{ tables: string[]; alarm: number | null }> {
  return runInDurableObject(env.CRAWL.getByName(crawlId), async (_instance, state) => ({
    tables: state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'",
      )
      .toArray()
      .map((r) => r.name),
    alarm: await state.storage.getAlarm(),
  }));
}

/** Every route of one crawl, as a program would call them. */
function routesOf(id: string, url: string): string[] {
  const u = encodeURIComponent(url);
  return [
    `/v1/crawls/${id}`,
    `/v1/crawls/${id}/pages`,
    `/v1/crawls/${id}/errors`,
    `/v1/crawls/${id}/stats`,
    `/v1/crawls/${id}/usage`,
    `/v1/crawls/${id}/content?url=${u}`,
    `/v1/crawls/${id}/links?url=${u}`,
    `/v1/crawls/${id}/export?format=jsonl`,
  ];
}

describe('DELETE /v1/crawls/:id?purge=true', () => {
  it('deletes everything the crawl stored in R2, D1 and its Durable Object; every route of it answers 404', async () => {
    const root = `${site()}/t/${namespace()}/pure-7/`;
    const id = await createCrawl({ seeds: [root] });
    expect((await waitForCrawl(id)).counts.stored).toBe(8);
    const warc = await api(`/v1/crawls/${id}/exports`, { method: 'POST' });
    expect(warc.status).toBe(201);
    expect((await objectKeys(id)).some((k) => k.includes('/exports/'))).toBe(true);
    expect(await d1Rows(id)).toMatchObject({ crawls: 1, pages: 8 });
    expect((await objectStorage(id)).tables.length).toBeGreaterThan(0);

    const res = await api(`/v1/crawls/${id}?purge=true`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id, purged: true });

    expect(await objectKeys(id)).toEqual([]);
    expect(await d1Rows(id)).toEqual({ crawls: 1, pages: 0, errors: 0, links: 0 }); // the row until the purge settles
    expect(await objectStorage(id)).toEqual({ tables: [], alarm: null });
    for (const path of routesOf(id, `${root}p1.html`)) expect((await api(path)).status, path).toBe(404);
    const listed = (await (await api('/v1/crawls?limit=100')).json()) as { crawls: { id: string }[] };
    expect(listed.crawls.map((c) => c.id)).not.toContain(id);
    expect((await api(`/v1/crawls/${id}?purge=true`, { method: 'DELETE' })).status).toBe(404);

    // Consumers that claimed before the purge may still write for a while; the cron's last pass then removes the row.
    await runHousekeeping(env, Date.now() + 11 * MINUTE);
    expect(await d1Rows(id)).toEqual({ crawls: 0, pages: 0, errors: 0, links: 0 });
    expect(await objectStorage(id)).toEqual({ tables: [], alarm: null });
  });

  it('rejects a purge value that is not true or false', async () => {
    const id = await createCrawl({ seeds: [`${site()}/t/${namespace()}/pure-1/`] });
    const res = await api(`/v1/crawls/${id}?purge=yes`, { method: 'DELETE' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('purge');
  });

  it('keeps the bodies later crawls of a schedule still point at, until none does', async () => {
    const root = `${site()}/t/${namespace()}/cond-5/`;
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
      const [crawlId] = await runDueSchedules(env);
      await waitForCrawl(crawlId as string);
      return crawlId as string;
    };
    const first = await runOnce();
    const second = await runOnce(); // every page 304: its pages point at the first crawl's segments
    expect(await objectKeys(second)).toEqual([]);

    expect((await api(`/v1/crawls/${first}?purge=true`, { method: 'DELETE' })).status).toBe(200);
    const content = await api(`/v1/crawls/${second}/content?url=${encodeURIComponent(`${root}p1.html`)}`);
    expect(await content.text()).toContain('page 1');
    const links = (await (await api(`/v1/crawls/${second}/links?url=${encodeURIComponent(root)}`)).json()) as {
      links: string[];
    };
    expect(links.links.length).toBeGreaterThan(0);
    const kept = await objectKeys(first);
    expect(kept.length).toBeGreaterThan(0);

    // Purging the second crawl frees them: nothing of either is left.
    expect((await api(`/v1/crawls/${second}?purge=true`, { method: 'DELETE' })).status).toBe(200);
    expect(await objectKeys(first)).toEqual([]);
    expect(await objectKeys(second)).toEqual([]);
    const retained = await env.DB.prepare('SELECT COUNT(*) AS n FROM retained_objects WHERE schedule_id = ?')
      .bind(created.id)
      .first<{ n: number }>();
    expect(retained?.n).toBe(0);
  });

  it('waits for a running recrawl of the crawl, which reads its pages and bodies, then purges', async () => {
    const root = `${site()}/t/${namespace()}/pure-3/`;
    const id = await createCrawl({ seeds: [root] });
    await waitForCrawl(id);
    // A scheduled recrawl of it, still running (its job row is what the purge looks at). Its config is a valid one:
    // the workers project shares storage across files, and other files list every crawl.
    const recrawl = crypto.randomUUID();
    await env.DB.prepare(
      "INSERT INTO crawls (id, status, config, created_at, updated_at, previous_crawl_id) VALUES (?, 'running', ?, 0, 0, ?)",
    )
      .bind(recrawl, JSON.stringify(testConfig({ seeds: [root] })), id)
      .run();
    const res = await api(`/v1/crawls/${id}?purge=true`, { method: 'DELETE' });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ id, purged: false });
    expect((await api(`/v1/crawls/${id}`)).status).toBe(404);
    expect((await objectKeys(id)).length).toBeGreaterThan(0);
    expect((await d1Rows(id)).pages).toBe(4);

    await env.DB.prepare("UPDATE crawls SET status = 'completed' WHERE id = ?").bind(recrawl).run();
    await runHousekeeping(env, Date.now() + 11 * MINUTE);
    expect(await objectKeys(id)).toEqual([]);
    expect(await d1Rows(id)).toEqual({ crawls: 0, pages: 0, errors: 0, links: 0 });
  });
});

describe('retentionDays', () => {
  it('the cron trigger purges a crawl once its retention has run out, and leaves the others', async () => {
    const kept = await createCrawl({ seeds: [`${site()}/t/${namespace()}/pure-3/`] });
    const id = await createCrawl({ seeds: [`${site()}/t/${namespace()}/pure-3/`], retentionDays: 2 });
    await waitForCrawl(kept);
    await waitForCrawl(id);
    const row = await env.DB.prepare('SELECT finished_at, expires_at FROM crawls WHERE id = ?')
      .bind(id)
      .first<{ finished_at: number; expires_at: number }>();
    expect(row?.expires_at).toBe((row?.finished_at ?? 0) + 2 * DAY);
    expect(
      ((await (await api(`/v1/crawls/${id}`)).json()) as { config: { retentionDays: number } }).config.retentionDays,
    ).toBe(2);

    await runHousekeeping(env, Date.now() + DAY); // not yet
    expect((await api(`/v1/crawls/${id}`)).status).toBe(200);

    await runHousekeeping(env, Date.now() + 2 * DAY + MINUTE);
    expect((await api(`/v1/crawls/${id}`)).status).toBe(404);
    expect(await objectKeys(id)).toEqual([]);
    expect(await d1Rows(id)).toMatchObject({ pages: 0, errors: 0, links: 0 });
    await runHousekeeping(env, Date.now() + 2 * DAY + 12 * MINUTE);
    expect(await d1Rows(id)).toEqual({ crawls: 0, pages: 0, errors: 0, links: 0 });
    expect(await objectStorage(id)).toEqual({ tables: [], alarm: null });

    expect((await api(`/v1/crawls/${kept}`)).status).toBe(200);
    expect((await objectKeys(kept)).length).toBeGreaterThan(0);
  });

  it('is validated: whole days from 1 to 3650', async () => {
    for (const retentionDays of [0, 1.5, 4000, '3']) {
      const res = await api('/v1/crawls', {
        method: 'POST',
        body: JSON.stringify({ seeds: [`${site()}/`], retentionDays }),
      });
      expect(res.status, String(retentionDays)).toBe(400);
    }
  });
});

describe('purging a crawl of a paced host', () => {
  it('gives back the slots the host held for it: a scrape of the host is answered at once', async () => {
    const base = inject('hosts')[19] as string;
    const id = await createCrawl({ seeds: [`${base}/t/${namespace()}/flat-60/`], hostIntervalMs: 500 });
    for (let i = 0; i < 200 && (await getCrawl(id)).counts.stored < 3; i++) await new Promise((r) => setTimeout(r, 50));
    const gate = env.HOSTS.getByName(new URL(base).hostname);
    const purged = await api(`/v1/crawls/${id}?purge=true`, { method: 'DELETE' });
    expect([200, 202]).toContain(purged.status);
    expect((await gate.state()).nextSlotInMs).toBeLessThan(1000);
    const scrape = await api('/v1/scrape', {
      method: 'POST',
      body: JSON.stringify({ url: `${base}/t/${namespace()}/pure-1/` }),
    });
    expect(scrape.status, await scrape.clone().text()).toBe(200);
  });
});
