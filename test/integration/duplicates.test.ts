import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pageListSchema, recordSchema, usageSchema } from '../../src/api/responses';
import { runDueSchedules } from '../../src/jobs/schedules';
import { ContentClaims } from '../../src/objects/crawl/content-claims';
import type { CrawlCoordinator } from '../../src/objects/crawl-coordinator';
import { getCrawl as getCrawlRow } from '../../src/storage/d1/crawls';
import { exportWarc } from '../../src/storage/warc-export';
import { allPages, api, createCrawl, namespace, site, waitForCrawl } from '../support/api';
import { testConfig } from '../support/fixtures';
import { COPIES, LOOKALIKES, SHOP_PRODUCTS } from '../support/shop-site';

const byUrl = <P extends { url: string }>(pages: readonly P[]) => new Map(pages.map((p) => [p.url, p]));

describe('duplicates', () => {
  it('stores each product of a shop once, under its canonical URL, and counts the rest as duplicates', async () => {
    const base = `${site()}/t/${namespace()}/shop/`;
    const id = await createCrawl({ seeds: [base] });
    const crawl = await waitForCrawl(id);
    // Stored: the listing, 40 products under their canonical URL, one of the two about pages, one of a/b, away.html,
    // and gone.html: a duplicate of missing.html until that failed (404), then given back, fetched again and stored.
    // Duplicates: index.html (the listing's bytes), 40 product URLs, the other about page, the other of a/b.
    expect(crawl.counts).toEqual({
      discovered: 89,
      fetched: 90,
      stored: 45,
      duplicates: 43,
      failed: 1,
      skipped: 0,
    });
    const pages = byUrl(await allPages(id));
    expect(pages.size).toBe(89);
    for (let n = 1; n <= SHOP_PRODUCTS; n++) {
      const canonical = `${base}p/${n}.html?ref=canonical`;
      expect(pages.get(`${base}p/${n}.html`)).toMatchObject({
        status: 200,
        duplicateOf: canonical,
        duplicateReason: 'canonical',
      });
      expect(pages.get(canonical)).toMatchObject({ status: 200, duplicateOf: null, title: `Product ${n}` });
    }
    expect(pages.get(`${base}index.html`)).toMatchObject({ duplicateOf: base, duplicateReason: 'content' });
    const about = [pages.get(`${base}about.html`), pages.get(`${base}company/about.html`)];
    expect(about.map((p) => p?.duplicateReason ?? null).sort()).toEqual(['content', null]);
    // Two pages naming each other canonical: one keeps its content.
    const pair = [pages.get(`${base}a.html`), pages.get(`${base}b.html`)];
    expect(pair.map((p) => p?.duplicateReason ?? null).sort()).toEqual(['canonical', null]);
    expect(pages.get(`${base}away.html`)).toMatchObject({ status: 200, duplicateOf: null });
    expect(pages.get(`${base}gone.html`)).toMatchObject({ status: 200, duplicateOf: null, title: 'Gone' });
    expect(pages.get(`${base}missing.html`)).toMatchObject({ status: 404 });

    // Every URL ends as exactly one of stored, duplicate, failed or skipped.
    const { discovered, stored, duplicates, failed, skipped } = crawl.counts;
    expect(stored + duplicates + failed + skipped).toBe(discovered);

    // A duplicate answers the content of the page it is a duplicate of, and names it.
    const kept = `${base}p/1.html?ref=canonical`;
    const content = async (url: string) => {
      const res = await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(url)}`);
      expect(res.status).toBe(200);
      return {
        body: await res.text(),
        url: res.headers.get('x-edgecrawl-url'),
        of: res.headers.get('x-edgecrawl-duplicate-of'),
      };
    };
    const [asDuplicate, asKept] = [await content(`${base}p/1.html`), await content(kept)];
    expect(asDuplicate).toEqual({ body: asKept.body, url: kept, of: kept });
    expect(asKept.of).toBeNull();
    expect(asDuplicate.body).toContain('Product 1 is a fine thing');

    // The listing filters them out, or shows them alone.
    const listed = async (filter: string) => {
      const res = await api(`/v1/crawls/${id}/pages?limit=1000&duplicates=${filter}`);
      expect(res.status).toBe(200);
      return pageListSchema.parse(await res.json()).pages;
    };
    expect(await listed('exclude')).toHaveLength(46);
    expect((await listed('only')).every((p) => p.duplicateOf !== null)).toBe(true);
    expect(await listed('only')).toHaveLength(43);
    expect((await api(`/v1/crawls/${id}/pages?duplicates=some`)).status).toBe(400);
  });

  it("llms.txt and WARC hold each product once; the JSONL export gives a duplicate its kept page's content", async () => {
    const base = `${site()}/t/${namespace()}/shop/`;
    const id = await createCrawl({ seeds: [base], extract: { formats: ['markdown'] } });
    const crawl = await waitForCrawl(id);
    expect(crawl.counts).toMatchObject({ stored: 45, duplicates: 43 });

    const llms = await (await api(`/v1/crawls/${id}/llms.txt`)).text();
    const listedProducts = [...llms.matchAll(/\((\S+\/p\/\d+\.html\S*)\)/g)].map((m) => m[1]);
    expect(listedProducts).toHaveLength(SHOP_PRODUCTS);
    expect(listedProducts.every((url) => url?.endsWith('?ref=canonical'))).toBe(true);
    const full = await (await api(`/v1/crawls/${id}/llms-full.txt`)).text();
    expect(full.match(/Product 1 is a fine thing/g)).toHaveLength(1);

    const lines = (await (await api(`/v1/crawls/${id}/export?format=jsonl`)).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { url: string; duplicateOf: string | null; markdown?: string });
    expect(lines).toHaveLength(89);
    // An export answers per URL: a duplicate's line has its kept page's content, and names it.
    const withContent = lines.filter((l) => l.markdown?.includes('Product 7 is a fine thing'));
    expect(withContent.map((l) => l.url)).toEqual([`${base}p/7.html`, `${base}p/7.html?ref=canonical`]);
    expect(lines.find((l) => l.url === `${base}p/7.html`)).toMatchObject({
      duplicateOf: `${base}p/7.html?ref=canonical`,
      markdown: withContent[1]?.markdown,
    });
    expect(lines.filter((l) => l.duplicateOf !== null && l.markdown === undefined)).toEqual([]);

    const row = await getCrawlRow(env.DB, id);
    const warc = await exportWarc(env.BODIES, env.DB, row!);
    // warcinfo, then a request and a response per page stored.
    expect(warc).toMatchObject({ records: 2 * 45 + 1, missing: [] });
    const object = await env.BODIES.get(warc.key);
    const text = new TextDecoder().decode(gunzipSync(new Uint8Array(await object!.arrayBuffer())));
    expect(text.match(/WARC-Target-URI: \S+\/p\/1\.html\S*/g)).toEqual([
      `WARC-Target-URI: ${base}p/1.html?ref=canonical`,
      `WARC-Target-URI: ${base}p/1.html?ref=canonical`,
    ]);
  });

  it("answers a duplicate's record and outputs with the kept page's, naming it", async () => {
    const base = `${site()}/t/${namespace()}/shop/`;
    const id = await createCrawl({ seeds: [base], extract: { formats: ['markdown', 'metadata'] } });
    expect((await waitForCrawl(id)).counts).toMatchObject({ stored: 45, duplicates: 43 });
    const [duplicate, kept] = [`${base}p/2.html`, `${base}p/2.html?ref=canonical`];
    const record = async (url: string) => {
      const res = await api(`/v1/crawls/${id}/record?url=${encodeURIComponent(url)}`);
      const body: unknown = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      return recordSchema.parse(body);
    };
    const [ofDuplicate, ofKept] = [await record(duplicate), await record(kept)];
    expect(ofKept.duplicateOf).toBeNull();
    expect(ofDuplicate).toEqual({ ...ofKept, url: duplicate, duplicateOf: kept });
    expect(ofDuplicate.metadata?.title).toBe('Product 2');

    const res = await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(duplicate)}&format=markdown`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-edgecrawl-duplicate-of')).toBe(kept);
    expect(await res.text()).toContain('Product 2 is a fine thing');

    // Its links are the kept page's (its own were followed, not stored), named as theirs: never an empty list.
    const links = async (url: string) => {
      const res = await api(`/v1/crawls/${id}/links?url=${encodeURIComponent(url)}`);
      expect(res.status).toBe(200);
      return (await res.json()) as { url: string; duplicateOf: string | null; links: string[] };
    };
    const [linksOfDuplicate, linksOfKept] = [await links(duplicate), await links(kept)];
    expect(linksOfKept).toMatchObject({ url: kept, duplicateOf: null });
    expect(linksOfKept.links).toContain(base);
    expect(linksOfDuplicate).toEqual({ ...linksOfKept, url: duplicate, duplicateOf: kept });

    // The listing's duplicate of the listing (index.html) is one by content: it answers the listing's markdown too.
    const index = await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(`${base}index.html`)}&format=markdown`);
    expect(index.headers.get('x-edgecrawl-duplicate-of')).toBe(base);
    expect(await index.text()).toContain('Product 40');
  });

  it('takes pages for duplicates by content only when their text, title and heading are all the same', async () => {
    const base = `${site()}/t/${namespace()}/lookalikes/`;
    const id = await createCrawl({ seeds: [base], extract: { formats: ['markdown'] } });
    const crawl = await waitForCrawl(id);
    const pages = byUrl(await allPages(id));
    const duplicateOf = (name: string) => pages.get(`${base}${name}.html`)?.duplicateOf ?? null;
    // Byte for byte the same: one is a duplicate of the other.
    expect([duplicateOf('same-1'), duplicateOf('same-2')].filter((d) => d !== null)).toHaveLength(1);
    // The same main text under their own title, or their own heading, or both: each is a page of its own.
    for (const name of [...LOOKALIKES.titled, ...LOOKALIKES.headed, ...LOOKALIKES.stock])
      expect(duplicateOf(name), name).toBeNull();
    expect(crawl.counts).toMatchObject({ stored: 9, duplicates: 1 });
  });

  it('adds no Durable Object row per stored page', async () => {
    const pages = 200;
    const rowsWritten = async (duplicates: 'skip' | 'keep') => {
      const id = await createCrawl({ seeds: [`${site()}/t/${namespace()}/flat-${pages}/`], duplicates });
      expect((await waitForCrawl(id)).counts).toMatchObject({ stored: pages + 1, duplicates: 0 });
      const usage = usageSchema.parse(await (await api(`/v1/crawls/${id}/usage`)).json());
      return usage.operations.durableObjectRowsWritten ?? Number.NaN;
    };
    const [skip, keep] = [await rowsWritten('skip'), await rowsWritten('keep')];
    // What deciding duplicates writes: a row per call that claims new contents (a chunk of 25 pages or more), not
    // one per page.
    expect(skip - keep).toBeLessThan(pages / 10);
  });

  it('keeps every URL with duplicates: "keep"', async () => {
    const base = `${site()}/t/${namespace()}/shop/`;
    const id = await createCrawl({ seeds: [base], duplicates: 'keep' });
    const crawl = await waitForCrawl(id);
    expect(crawl.counts).toEqual({ discovered: 89, fetched: 89, stored: 88, duplicates: 0, failed: 1, skipped: 0 });
    expect(crawl.config).toMatchObject({ duplicates: 'keep' });
    expect((await allPages(id)).filter((p) => p.duplicateOf !== null)).toEqual([]);
  });

  it('a recrawl keeps duplicates duplicates, and lists none of them as new, changed or gone', async () => {
    const base = `${site()}/t/${namespace()}/shop/`;
    const res = await api('/v1/schedules', {
      method: 'POST',
      body: JSON.stringify({ everySeconds: 3600, crawl: { seeds: [base] } }),
    });
    const { id: scheduleId } = (await res.json()) as { id: string };
    const runOnce = async () => {
      await env.DB.prepare('UPDATE schedules SET next_run_at = 0 WHERE id = ?').bind(scheduleId).run();
      await runDueSchedules(env);
      const row = await env.DB.prepare('SELECT last_crawl_id FROM schedules WHERE id = ?')
        .bind(scheduleId)
        .first<{ last_crawl_id: string }>();
      return row?.last_crawl_id ?? '';
    };
    const first = await runOnce();
    expect((await waitForCrawl(first)).counts).toMatchObject({ stored: 45, duplicates: 43 });
    const second = await runOnce();
    expect(second).not.toBe(first);
    expect((await waitForCrawl(second)).counts).toMatchObject({ stored: 45, duplicates: 43 });
    const pages = await allPages(second);
    const duplicates = new Set(pages.filter((p) => p.duplicateOf !== null).map((p) => p.url));
    for (let n = 1; n <= SHOP_PRODUCTS; n++) expect(duplicates.has(`${base}p/${n}.html`)).toBe(true);
    const changes = (await (await api(`/v1/crawls/${second}/changes?limit=1000`)).json()) as {
      changes: { url: string; kind: string }[];
    };
    // Nothing of the shop changed: at most the pages of the same content trade places (about.html and
    // company/about.html, a.html and b.html: whichever comes first is kept), never a duplicate.
    expect(changes.changes.filter((c) => duplicates.has(c.url) || c.kind === 'gone')).toEqual([]);
    expect(changes.changes.filter((c) => !/\/(company\/)?about\.html$|\/[ab]\.html$/.test(c.url))).toEqual([]);
    const unchanged = (await (await api(`/v1/crawls/${second}/changes?kind=unchanged&limit=1000`)).json()) as {
      changes: { url: string }[];
    };
    expect(unchanged.changes.filter((c) => duplicates.has(c.url))).toEqual([]);
    expect(unchanged.changes.length).toBeGreaterThanOrEqual(42);
  });

  it('keeps exactly one of many identical pages racing through the consumers', async () => {
    const base = `${site()}/t/${namespace()}/copies/`;
    const id = await createCrawl({ seeds: [base] });
    const crawl = await waitForCrawl(id);
    expect(crawl.counts).toMatchObject({ discovered: COPIES + 1, stored: 2, duplicates: COPIES - 1 });
    const copies = (await allPages(id)).filter((p) => p.url.includes('/copy/'));
    const kept = copies.filter((p) => p.duplicateOf === null);
    expect(kept).toHaveLength(1);
    expect(new Set(copies.flatMap((p) => (p.duplicateOf ? [p.duplicateOf] : [])))).toEqual(new Set([kept[0]?.url]));
  });

  it('the coordinator gives a content hash to one URL, whatever the calls racing for it', async () => {
    const crawlId = crypto.randomUUID();
    const stub = env.CRAWL.getByName(crawlId);
    await stub.start(crawlId, testConfig());
    const candidate = (n: number) => ({ url: `https://x.test/${n}`, canonical: null, key: 'same', unchanged: false });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, call) => stub.dedupe([candidate(call * 2), candidate(call * 2 + 1)])),
    );
    const verdicts = answers.flatMap((a) => a ?? []);
    expect(verdicts).toHaveLength(40);
    const unique = verdicts.filter((v) => !v.duplicate);
    expect(unique).toHaveLength(1);
    const ofs = new Set(verdicts.flatMap((v) => (v.duplicate ? [v.of] : [])));
    expect(ofs.size).toBe(1);
    // The first URL asked again (a redelivery) is still unique; a 304 keeps its status.
    const [first] = [...ofs];
    expect(await stub.dedupe([{ url: first!, canonical: null, key: 'same', unchanged: false }])).toEqual([
      { duplicate: false },
    ]);
    expect(await stub.dedupe([{ url: 'https://x.test/304', canonical: null, key: 'same', unchanged: true }])).toEqual([
      { duplicate: false },
    ]);
    // One row for the one call that claimed the key, none per page.
    await runInDurableObject(stub, (_instance, state) => {
      expect(state.storage.sql.exec('SELECT COUNT(*) AS n FROM claims').one().n).toBe(1);
      expect(state.storage.sql.exec('SELECT COUNT(*) AS n FROM contents').one().n).toBe(0);
    });
  });

  it('gives a duplicate by content back when the page it named fails for good, and the content key to it', async () => {
    const crawlId = crypto.randomUUID();
    const stub = env.CRAWL.getByName(crawlId);
    const [a, b, c] = ['https://x.test/a', 'https://x.test/b', 'https://x.test/c'];
    await stub.start(crawlId, testConfig({ seeds: [a, b, c] }));
    const candidate = (url: string) => ({ url, canonical: null, key: 'shared', unchanged: false });
    // a claims the key, but its chunk could not be recorded: handed back, to be fetched again.
    await stub.claim([a, b]);
    expect(await stub.dedupe([candidate(a)])).toEqual([{ duplicate: false }]);
    await stub.complete([{ kind: 'released', url: a, fetched: true, reason: 'storage error' }]);
    // b has the same content meanwhile: a duplicate of a.
    expect(await stub.dedupe([candidate(b)])).toEqual([{ duplicate: true, of: a, reason: 'content' }]);
    await stub.complete([{ kind: 'duplicate', url: b, fetched: true, reason: 'content', of: a }]);
    // a then fails for good: b is offered again, to be fetched and stored (its content is no longer lost).
    await stub.claim([a]);
    const failed = await stub.complete([
      { kind: 'failed', url: a, fetched: true, reason: 'http 500', code: 'http_5xx' },
    ]);
    expect(failed.accepted.map((e) => e.url)).toEqual([b]);
    expect((await stub.snapshot())?.counts).toMatchObject({ duplicates: 0, failed: 1 });
    // b, fetched again, now holds the key: it is unique, and a later page of that content is a duplicate of b.
    await stub.claim([b, c]);
    expect(await stub.dedupe([candidate(b)])).toEqual([{ duplicate: false }]);
    await stub.complete([{ kind: 'stored', url: b, fetched: true }]);
    expect(await stub.dedupe([candidate(c)])).toEqual([{ duplicate: true, of: b, reason: 'content' }]);
    await runInDurableObject(stub, (_instance, state) => {
      expect(state.storage.sql.exec('SELECT COUNT(*) AS n FROM reclaims').one().n).toBe(1);
    });
  });

  it('keeps the first URL of each key across a restart, and past the in-memory capacity', async () => {
    const crawlId = crypto.randomUUID();
    const stub = env.CRAWL.getByName(crawlId);
    await stub.start(crawlId, testConfig());
    await runInDurableObject(stub, (instance: CrawlCoordinator, state) => {
      const { ledger } = instance.parts;
      const claim = (claims: ContentClaims, keys: string[], tag: string) =>
        Object.fromEntries(claims.claim(keys.map((key) => ({ key, url: `https://x.test/${tag}/${key}` }))));
      const before = new ContentClaims(ledger, 3);
      // Two calls: 3 keys fit the index (a row each call), 2 go to `contents` (a row each).
      expect(claim(before, ['a', 'b'], 'first')).toEqual({ a: 'https://x.test/first/a', b: 'https://x.test/first/b' });
      expect(claim(before, ['b', 'c', 'd', 'e', 'c'], 'second')).toEqual({
        b: 'https://x.test/first/b',
        c: 'https://x.test/second/c',
        d: 'https://x.test/second/d',
        e: 'https://x.test/second/e',
      });
      expect(state.storage.sql.exec('SELECT COUNT(*) AS n FROM claims').one().n).toBe(2);
      expect(state.storage.sql.exec('SELECT COUNT(*) AS n FROM contents').one().n).toBe(2);
      // What a woken object reads: every key keeps its first URL; a new one is claimed.
      const after = new ContentClaims(ledger, 3);
      expect(claim(after, ['e', 'd', 'c', 'b', 'a', 'f'], 'third')).toEqual({
        a: 'https://x.test/first/a',
        b: 'https://x.test/first/b',
        c: 'https://x.test/second/c',
        d: 'https://x.test/second/d',
        e: 'https://x.test/second/e',
        f: 'https://x.test/third/f',
      });
    });
  });
});
