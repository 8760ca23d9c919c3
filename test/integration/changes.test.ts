import { describe, expect, it } from 'vitest';
import { api, createCrawl, namespace, site, waitForCrawl } from '../support/api';

/** What changed between two crawls of the watch site (test/support/watch-site.ts): text, a field, noise. */

interface ChangeList {
  previousCrawlId: string | null;
  changes: { url: string; kind: string }[];
}
interface Diff {
  kind: string;
  diff: string;
  added: number;
  removed: number;
  fields: { name: string; before: unknown; after: unknown }[];
}
interface Delivery {
  body: string;
  status: number;
}

const SECRET = 'test-webhook-secret-0123456789';

async function changesOf(id: string): Promise<Record<string, number>> {
  return ((await (await api(`/v1/crawls/${id}`)).json()) as { changes: Record<string, number> }).changes;
}

/** Every page's kind, in URL order: what changed (the default listing), and what did not. */
async function kinds(id: string, root: string): Promise<string[]> {
  const list = async (query: string) =>
    ((await (await api(`/v1/crawls/${id}/changes${query}`)).json()) as ChangeList).changes;
  const all = [...(await list('')), ...(await list('?kind=unchanged'))].sort((a, b) => a.url.localeCompare(b.url));
  return all.map((c) => `${c.kind} ${c.url.slice(root.length)}`);
}

async function diffOf(id: string, url: string): Promise<Diff> {
  const res = await api(`/v1/crawls/${id}/diff?url=${encodeURIComponent(url)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Diff;
}

/** A crawl of the site, then the site's second version crawled and compared with it. */
async function twoCrawls(root: string, settings: Record<string, unknown>): Promise<[string, string]> {
  const first = await createCrawl({ seeds: [root], ...settings });
  await waitForCrawl(first);
  expect((await fetch(`${root}__next`)).status).toBe(204);
  const second = await createCrawl({ seeds: [root], ...settings, previousCrawlId: first });
  await waitForCrawl(second);
  return [first, second];
}

async function pageChangedEvents(ns: string, count: number): Promise<{ url: string; fields?: unknown }[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const got = (await (await fetch(`${site()}/__hook/${ns}`)).json()) as Delivery[];
    const events = got.map((d) => JSON.parse(d.body) as { type: string; data: { url: string; fields?: unknown } });
    const changed = events.filter((e) => e.type === 'page.changed').map((e) => e.data);
    if (changed.length >= count || Date.now() > deadline) {
      await new Promise((r) => setTimeout(r, 1000));
      return changed;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('changes between two crawls', () => {
  it('counts text and field changes, a removed and a new page; noise and ignored parts are no change', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/watch/`;
    const [first, second] = await twoCrawls(root, {
      extract: { formats: ['markdown', 'text'], fields: { price: { selector: '.price' } } },
      ignore: ['.live'],
      webhook: { url: `${site()}/__hook/${ns}`, secret: SECRET, events: ['page.changed'] },
    });
    expect(await kinds(second, root)).toEqual([
      'changed ',
      'changed article.html',
      'gone gone.html',
      'new new.html',
      'unchanged noisy.html',
      'changed product.html',
      'unchanged stamped.html',
    ]);
    // Both crawls reached every page they found: nothing unreached on either side, and the figures are final.
    expect(await changesOf(second)).toEqual({
      new: 1,
      changed: 3,
      unchanged: 2,
      gone: 1,
      unreached: 0,
      unreachedBefore: 0,
      provisional: false,
    });
    const list = (await (await api(`/v1/crawls/${second}/changes`)).json()) as ChangeList;
    expect(list.previousCrawlId).toBe(first);

    const article = await diffOf(second, `${root}article.html`);
    expect(article.kind).toBe('changed');
    expect(article.diff).toContain('-Where the current slows');
    expect(article.diff).toContain('+Dams now hold most of that sand back');
    expect([article.added, article.removed]).toEqual([1, 1]);
    const product = await diffOf(second, `${root}product.html`);
    expect(product.fields).toEqual([{ name: 'price', before: '€129', after: '€149' }]);
    // The clock, the token and the ad are not content; the ignored live reading is not either.
    for (const quiet of ['noisy.html', 'stamped.html']) {
      const diff = await diffOf(second, `${root}${quiet}`);
      expect(diff).toMatchObject({ kind: 'unchanged', diff: '', added: 0, removed: 0, fields: [] });
    }
    const stamped = await api(`/v1/crawls/${second}/content?url=${encodeURIComponent(`${root}stamped.html`)}`);
    expect(await stamped.text()).toContain('The gauge at the harbour read');

    // The webhook hears of each new or changed page, never of the quiet ones.
    const events = await pageChangedEvents(ns, 4);
    expect(events.map((e) => e.url.slice(root.length)).sort()).toEqual([
      '',
      'article.html',
      'new.html',
      'product.html',
    ]);
    expect(events.find((e) => e.url.endsWith('product.html'))?.fields).toEqual([
      { name: 'price', before: '€129', after: '€149' },
    ]);
  });

  it('without extraction, compares pages by their main text: markup noise is no change, a time in the text is (with no ignore)', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/watch/`;
    // A plain crawl (extract: null; markdown and metadata are the default): compared by the main text all the same.
    const [, second] = await twoCrawls(root, { extract: null });
    expect(await kinds(second, root)).toEqual([
      'changed ',
      'changed article.html',
      'gone gone.html',
      'new new.html',
      'unchanged noisy.html',
      'changed product.html',
      'changed stamped.html',
    ]);
  });

  it('refuses an unknown previous crawl, and a previousCrawlId on a schedule', async () => {
    const seeds = [`${site()}/t/${namespace()}/watch/`];
    const unknown = await api('/v1/crawls', {
      method: 'POST',
      body: JSON.stringify({ seeds, previousCrawlId: crypto.randomUUID() }),
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(
      /^previousCrawlId: no crawl/,
    );
    const schedule = await api('/v1/schedules', {
      method: 'POST',
      body: JSON.stringify({ everySeconds: 3600, crawl: { seeds, previousCrawlId: crypto.randomUUID() } }),
    });
    expect(schedule.status).toBe(400);
    expect(await schedule.text()).toContain('previousCrawlId is not for schedules');
  });
});
