/**
 * Schedules run by themselves under `npm start`, as they do deployed: `wrangler dev` never fires cron triggers, so
 * `npm start` fires the ones wrangler.toml declares, on their schedule. A schedule of every 60 s must start two
 * crawls within about two minutes, with nothing poked by hand. Runs in Node (vitest project "system").
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Sites, startSites, startWorker, type Worker } from '../../scripts/lib/local.ts';

let sites: Sites;
let worker: Worker;

beforeAll(async () => {
  sites = await startSites(0);
  worker = await startWorker({ HOST_MIN_INTERVAL_MS: '0' }, { npmStart: true });
});

afterAll(async () => {
  await worker?.stop();
  await sites?.stop();
});

interface ScheduleView {
  id: string;
  nextRunAt: string;
  lastRunAt: string | null;
  lastCrawlId: string | null;
}

interface CrawlDetail {
  status: string;
  counts: { stored: number };
  changes?: { new: number; changed: number; unchanged: number; gone: number };
}

describe('schedules under npm start', () => {
  it('an everySeconds: 60 schedule runs twice by itself', { timeout: 230_000 }, async () => {
    const seed = `${sites.siteA}/t/sched${Date.now().toString(36)}/pure-3/`;
    const schedule = await api<ScheduleView>(worker, '/v1/schedules', {
      method: 'POST',
      body: JSON.stringify({ everySeconds: 60, crawl: { seeds: [seed] } }),
    });
    const runs: string[] = [];
    const deadline = Date.now() + 200_000;
    while (runs.length < 2 && Date.now() < deadline) {
      const view = await api<ScheduleView>(worker, `/v1/schedules/${schedule.id}`);
      if (view.lastCrawlId && !runs.includes(view.lastCrawlId)) runs.push(view.lastCrawlId);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(runs).toHaveLength(2);
    // Each run crawled the site: the first found every page new, the second is a recrawl of the first.
    const [first, second] = await Promise.all(runs.map((id) => waitForEnd(id)));
    expect(first?.counts.stored).toBe(4);
    expect(first?.changes?.new).toBe(4);
    expect(second?.counts.stored).toBe(4);
    expect((second?.changes?.changed ?? 0) + (second?.changes?.unchanged ?? 0)).toBe(4);
  });

  it('npm start says in one line each that it migrated D1 and that it fires the crons', () => {
    const output = worker.output();
    const migrations = readdirSync(new URL('../../migrations', import.meta.url)).filter((f) => f.endsWith('.sql'));
    expect(output.match(/^edgecrawl: local D1: .*$/gm)).toEqual([
      `edgecrawl: local D1: ${migrations.length} migrations applied`,
    ]);
    // None of wrangler's migration tables, nor its line saying crons are not triggered locally (they are).
    expect(output).not.toMatch(/Migrations to be applied|commands executed successfully|[┌├└]/);
    expect(output).not.toMatch(/Scheduled Workers are not automatically triggered/);
    expect(output).toMatch(/^edgecrawl: npm start fires the cron triggers \(\* \* \* \* \*\) on schedule/m);
    expect(output).toMatch(/Ready on http/);
  });
});

async function waitForEnd(id: string): Promise<CrawlDetail> {
  for (let i = 0; i < 60; i++) {
    const crawl = await api<CrawlDetail>(worker, `/v1/crawls/${id}`);
    if (crawl.status !== 'running') return crawl;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`crawl ${id} did not end`);
}
