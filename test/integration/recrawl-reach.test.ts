import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { getCrawl as getCrawlRow } from '../../src/storage/d1/crawls';
import { api, createCrawl, getCrawl, namespace, site, waitForCrawl } from '../support/api';

/**
 * What a recrawl counts when one of the two crawls did not reach every page (issue 31, item 9), on the grow site
 * (test/support/grow-site.ts): its second version edits edited.html, removes removed.html (still linked: a 404),
 * removes dropped.html and every link to it, adds added.html; the index links all of them, so a capped crawl reaches
 * them first, and the ten-ary tree of docs pages is what a cap leaves out (in an order that differs between runs).
 */

interface Changes {
  new: number;
  changed: number;
  unchanged: number;
  gone: number;
  unreached: number;
  unreachedBefore: number;
  provisional: boolean;
}
interface ChangeList {
  provisional: boolean;
  changes: { url: string; kind: string }[];
  cursor: string | null;
}

async function changesOf(id: string): Promise<Changes> {
  return ((await (await api(`/v1/crawls/${id}`)).json()) as { changes: Changes }).changes;
}

/** The pages of one kind, as paths below the site's root, every page of the listing. */
async function listed(id: string, kind: string, root: string): Promise<string[]> {
  const paths: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await api(`/v1/crawls/${id}/changes?kind=${kind}&limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as ChangeList;
    paths.push(...body.changes.map((c) => (expect(c.kind).toBe(kind), c.url.slice(root.length))));
    cursor = body.cursor;
  } while (cursor);
  return paths;
}

async function storedCount(id: string): Promise<number> {
  return (await getCrawl(id)).counts.stored;
}

const diff = (id: string, url: string) => api(`/v1/crawls/${id}/diff?url=${encodeURIComponent(url)}`);

/** The site crawled (settings `before`), moved to its second version, crawled again compared with the first. */
async function recrawl(root: string, before: object, after: object): Promise<[string, string]> {
  const first = await createCrawl({ seeds: [root], ...before });
  await waitForCrawl(first);
  expect((await fetch(`${root}__next`)).status).toBe(204);
  const second = await createCrawl({ seeds: [root], ...after, previousCrawlId: first });
  return [first, second];
}

describe('a recrawl that did not reach every page', () => {
  it('capped, after a whole crawl: what it did not reach is unreached, not gone, and has no diff', async () => {
    const root = `${site()}/t/${namespace()}/grow-200-d5/`;
    const [first, second] = await recrawl(root, {}, { maxPages: 60 });
    // While it runs, the figures say they are provisional, and nothing it has not reached yet is gone.
    const running = await changesOf(second);
    expect(running.provisional).toBe(true);
    expect(running.gone).toBeLessThanOrEqual(1);
    await waitForCrawl(second);

    const changes = await changesOf(second);
    expect(changes).toMatchObject({ new: 1, changed: 2, gone: 1, unreachedBefore: 0, provisional: false });
    // Every page the first crawl stored is present again (changed or unchanged), gone, or unreached.
    expect(changes.changed + changes.unchanged + changes.gone + changes.unreached).toBe(await storedCount(first));
    // 210 pages before; 60 URLs now (the cap): the index and its 7 links, blog's 2, docs p1-p10 and 40 of their
    // children; of the first crawl's pages that leaves 58 found again, removed.html gone, 151 unreached.
    expect(await storedCount(first)).toBe(210);
    expect(changes).toMatchObject({ unchanged: 56, unreached: 151 });
    expect(await listed(second, 'gone', root)).toEqual(['removed.html']);
    expect(await listed(second, 'new', root)).toEqual(['added.html']);
    expect((await listed(second, 'changed', root)).sort()).toEqual(['', 'edited.html']);
    const unreached = await listed(second, 'unreached', root);
    expect(unreached).toHaveLength(changes.unreached);
    expect(unreached).toContain('dropped.html');

    // The diff of a gone page is its text removed; an unreached page has none (it is not deleted).
    const gone = await diff(second, `${root}removed.html`);
    expect(gone.status).toBe(200);
    expect(((await gone.json()) as { kind: string; removed: number }).kind).toBe('gone');
    for (const path of ['dropped.html', unreached.find((p) => p.startsWith('docs/')) ?? '']) {
      const res = await diff(second, `${root}${path}`);
      expect(res.status, path).toBe(409);
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('not_compared');
      expect(error.message).toMatch(/did not reach/);
    }

    // The crawl list shows the same counts.
    const list = (await (await api('/v1/crawls?limit=100')).json()) as {
      crawls: { id: string; changes: Changes | null }[];
    };
    expect(list.crawls.find((c) => c.id === second)?.changes).toEqual(changes);
    expect(list.crawls.find((c) => c.id === first)?.changes).toBeNull();
  });

  it('both capped: pages one crawl reached and the other did not are neither new nor gone', async () => {
    const root = `${site()}/t/${namespace()}/grow-200/`;
    const [, second] = await recrawl(root, { maxPages: 60 }, { maxPages: 60 });
    await waitForCrawl(second);
    const changes = await changesOf(second);
    // Only the 404 is known gone; added.html may be new, but a capped first crawl cannot tell: it was not looking.
    expect(changes).toMatchObject({ new: 0, gone: 1, changed: 2, provisional: false });
    expect(await listed(second, 'gone', root)).toEqual(['removed.html']);
    expect(await listed(second, 'unreachedBefore', root)).toContain('added.html');
    expect(await listed(second, 'unreached', root)).toContain('dropped.html');
    const res = await diff(second, `${root}added.html`);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /previous crawl did not reach/,
    );
  });

  it('whole, both: a page no longer linked from any page fetched is gone, and a page newly linked is new', async () => {
    const root = `${site()}/t/${namespace()}/grow-30/`;
    const [first, second] = await recrawl(root, {}, {});
    await waitForCrawl(second);
    const changes = await changesOf(second);
    expect(changes).toMatchObject({ new: 1, changed: 2, gone: 2, unreached: 0, unreachedBefore: 0 });
    expect(changes.changed + changes.unchanged + changes.gone).toBe(await storedCount(first));
    expect(await listed(second, 'gone', root)).toEqual(['dropped.html', 'removed.html']);
    expect((await (await diff(second, `${root}dropped.html`)).json()) as { kind: string }).toMatchObject({
      kind: 'gone',
    });
  });
});

describe('how far an ended crawl reached', () => {
  /** The reach the crawl's object wrote with its last status (D1's crawls row). */
  async function reachOf(request: Record<string, unknown>, cancel = false) {
    const id = await createCrawl(request);
    if (cancel) await api(`/v1/crawls/${id}`, { method: 'DELETE' });
    await waitForCrawl(id);
    for (let i = 0; i < 50; i++) {
      const row = await getCrawlRow(env.DB, id);
      if (row?.status !== 'running' && row?.summary?.reach) return row.summary.reach;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no reach written for ${id}`);
  }

  it('is complete when every link found was followed, and says what cut it otherwise', async () => {
    const root = `${site()}/t/${namespace()}/grow-30/`;
    expect(await reachOf({ seeds: [root] })).toEqual({ complete: true, cuts: [] });
    expect(await reachOf({ seeds: [root], maxPages: 5 })).toEqual({ complete: false, cuts: ['maxPages'] });
    expect(await reachOf({ seeds: [root], maxDepth: 1 })).toEqual({ complete: false, cuts: ['maxDepth'] });
    // A depth no page reaches cuts nothing.
    expect(await reachOf({ seeds: [root], maxDepth: 10 })).toEqual({ complete: true, cuts: [] });
    expect((await reachOf({ seeds: [`${site()}/t/${namespace()}/grow-200-d50/`] }, true)).cuts).toContain('cancelled');
    // The misc site's redirect chain ends in "too many redirects": the page at its end was never read.
    expect((await reachOf({ seeds: [`${site()}/t/${namespace()}/misc/`] })).cuts).toEqual(['unread']);
  });
});
