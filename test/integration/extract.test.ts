import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { runDueSchedules } from '../../src/jobs/schedules';
import { api, countBy, createCrawl, getCrawl, namespace, site, siteLog, waitForCrawl } from '../support/api';
import { HOSTILE_PAGES } from '../support/hostile-pages';

const SPEC = {
  formats: ['markdown', 'text', 'html', 'metadata', 'jsonLd', 'links', 'images'],
  fields: {
    name: { selector: 'h1.product-title' },
    price: { selector: '.price', type: 'number' },
    rating: { selector: '.rating', type: 'number' },
    tags: { selector: '.tags li', list: true },
    image: { selector: 'img.main', attr: 'src', type: 'url' },
    specs: { selector: 'table.specs tr', list: true, fields: { key: { selector: 'th' }, value: { selector: 'td' } } },
  },
};

interface RecordView {
  url: string;
  duplicateOf: string | null;
  status: number;
  contentType: string;
  fetchedAt: string;
  cachedFrom: string | null;
  metadata?: Record<string, unknown>;
  jsonLd?: Record<string, unknown>[];
  fields?: Record<string, unknown>;
  fieldErrors?: Record<string, string>;
  links?: string[];
  images?: { src: string; alt: string }[];
  wordCount: number;
  contentHash: string;
  warnings: string[];
}

const record = async (id: string, url: string) => {
  const res = await api(`/v1/crawls/${id}/record?url=${encodeURIComponent(url)}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as RecordView;
};
const content = async (id: string, url: string, format: string) => {
  const res = await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(url)}&format=${format}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return { type: res.headers.get('content-type'), body: await res.text() };
};

describe('a crawl with extract', () => {
  it('stores a record per HTML page: metadata, JSON-LD, fields, and markdown, text and html of the main content', async () => {
    const root = `${site()}/t/${namespace()}/docs/`;
    const id = await createCrawl({ seeds: [root], maxDepth: 1, extract: SPEC });
    const crawl = await waitForCrawl(id);
    // index.html is the root's bytes again: a duplicate of it (docs/crawling.md, Duplicates).
    expect(crawl.counts).toMatchObject({ discovered: 8, stored: 7, duplicates: 1, failed: 0 });

    const article = await record(id, `${root}article.html`);
    expect(article).toMatchObject({ url: `${root}article.html`, status: 200, contentType: 'text/html; charset=utf-8' });
    expect(article.metadata).toMatchObject({
      title: 'Getting started | Docs',
      headline: 'Getting started',
      description: 'How to start crawling.',
      language: 'en',
      canonical: `${root}article.html`,
      author: 'Ada',
    });
    expect(article.jsonLd?.map((item) => item['@type'])).toEqual(['TechArticle', 'WebSite']);
    expect(article.warnings.some((w) => /jsonLd: block 2/.test(w))).toBe(true);
    expect(article.links).toContain(`${root}product.html`);
    const markdown = await content(id, `${root}article.html`, 'markdown');
    expect(markdown.type).toBe('text/markdown; charset=utf-8');
    expect(markdown.body).toMatch(/^# Getting started\n\nIntro paragraph 1/);
    expect(markdown.body).toContain('| Option | Default |\n| --- | --- |\n| `maxPages` | none |');
    expect(markdown.body).toContain('```ts\nconst crawl = await start();\nconsole.log(crawl.id);\n```');
    expect(markdown.body).toContain(`[elsewhere](${new URL('/elsewhere/page.html', root).href})`);
    for (const clutter of ['cookies', 'Docs home', 'Docs footer']) expect(markdown.body).not.toContain(clutter);
    expect((await content(id, `${root}article.html`, 'text')).type).toBe('text/plain; charset=utf-8');
    expect((await content(id, `${root}article.html`, 'html')).body).toContain(`href="${root}product.html"`);

    const product = await record(id, `${root}product.html`);
    expect(product.fields).toEqual({
      name: 'Desk Lamp',
      price: 1299,
      rating: null,
      tags: ['home', 'light'],
      image: `${root}img/lamp.jpg`,
      specs: [
        { key: 'Height', value: '40 cm' },
        { key: 'Weight', value: '1 kg' },
      ],
    });
    expect(product.fieldErrors).toEqual({ rating: 'not a number: "five stars"' });
    expect(product.images).toEqual([{ src: `${root}img/lamp.jpg`, alt: 'Lamp' }]);
    expect((await record(id, `${root}latin1.html`)).metadata?.title).toBe('Café “menu”');
    expect((await content(id, `${root}latin1.html`, 'text')).body).toBe('Crème brûlé.');
    expect((await content(id, `${root}nav-only.html`, 'markdown')).body).toBe(
      `- [Home](${root}index.html)\n- [Guide](${root}article.html)`,
    );
  });

  it('stores hostile pages once, never retried, each with a record or a warning, and the Worker stays up', async () => {
    const root = `${site()}/t/${namespace()}/docs/`;
    const pages = ['deep.html', 'unclosed.html', 'links.html', 'script.html'].map((p) => `${root}${p}`);
    const id = await createCrawl({ seeds: pages, maxDepth: 0, extract: { formats: ['markdown', 'text'] } });
    const crawl = await waitForCrawl(id, 120_000);
    expect(crawl.counts).toMatchObject({ discovered: 4, stored: 4, failed: 0 });
    const log = (await siteLog(new URL(root).pathname.split('/')[2] ?? '')).filter((l) => !l.endsWith('/robots.txt'));
    expect(
      [...countBy(log).values()].every((n) => n === 1),
      JSON.stringify([...countBy(log)]),
    ).toBe(true);
    expect((await content(id, `${root}deep.html`, 'text')).body).toContain('deep text');
    const deep = await record(id, `${root}deep.html`);
    expect(
      deep.warnings.some((w) => /nest deeper/.test(w)),
      JSON.stringify(deep.warnings),
    ).toBe(true);
    const links = await record(id, `${root}links.html`);
    expect(links.warnings).toEqual([
      expect.stringMatching(/^page: parsed up to 20000 elements, \d+ of \d+ characters; the rest is not extracted$/),
      'content: more than 10000 elements; main content not detected, the whole body is used',
    ]);
    const linksMarkdown = (await content(id, `${root}links.html`, 'markdown')).body;
    expect(linksMarkdown.startsWith(`[0](${root}x/0.html)`)).toBe(true);
    expect(linksMarkdown.length).toBeLessThan(2_097_152);
    expect((await content(id, `${root}script.html`, 'markdown')).body).toBe('Script page text.');
    expect((await record(id, `${root}unclosed.html`)).wordCount).toBe(20_000);
    expect((await api('/v1/health')).status).toBe(200);
  });

  it('stores every page of the hostile set once, each with a record, in one crawl', async () => {
    const root = `${site()}/t/${namespace()}/docs/hostile/`;
    const pages = HOSTILE_PAGES.map((p) => `${root}${p.name}`);
    const id = await createCrawl({
      seeds: pages,
      maxDepth: 0,
      extract: { formats: ['markdown', 'text', 'links'], fields: { cells: { selector: 'td', list: true } } },
    });
    const crawl = await waitForCrawl(id, 180_000);
    expect(crawl.counts).toMatchObject({ discovered: pages.length, stored: pages.length, failed: 0 });
    const log = (await siteLog(new URL(root).pathname.split('/')[2] ?? '')).filter((l) => !l.endsWith('/robots.txt'));
    expect(
      [...countBy(log).values()].every((n) => n === 1),
      JSON.stringify([...countBy(log)]),
    ).toBe(true);
    for (const url of pages) expect((await record(id, url)).contentHash, url).toMatch(/^[0-9a-f]{64}$/);
    expect((await record(id, `${root}deep-divs.html`)).warnings[0]).toMatch(/nested deeper than 512 were flattened/);
    expect((await record(id, `${root}siblings-200k.html`)).warnings[0]).toMatch(/^page: parsed up to 20000 elements/);
    expect((await api('/v1/health')).status).toBe(200);
  });

  it('without extract, a page the streaming parser gives up on is stored once with a warning, not retried', async () => {
    const ns = namespace();
    const url = `${site()}/t/${ns}/docs/deep.html`;
    const id = await createCrawl({ seeds: [url], maxDepth: 0, extract: null });
    expect((await waitForCrawl(id)).counts).toMatchObject({ stored: 1, failed: 0 });
    expect((await siteLog(ns)).filter((l) => l.endsWith('deep.html'))).toHaveLength(1);
    const [line] = (await (await api(`/v1/crawls/${id}/export?format=jsonl`)).text()).trimEnd().split('\n');
    expect((JSON.parse(line ?? '{}') as { warnings?: string[] }).warnings?.[0]).toMatch(
      /^links: the page could not be parsed/,
    );
  });

  it('answers 404 for a record of a crawl without extract, and for a format it did not keep', async () => {
    const root = `${site()}/t/${namespace()}/docs/`;
    const plain = await createCrawl({ seeds: [`${root}article.html`], maxDepth: 0, extract: null });
    await waitForCrawl(plain);
    expect((await api(`/v1/crawls/${plain}/record?url=${encodeURIComponent(`${root}article.html`)}`)).status).toBe(404);
    expect((await api(`/v1/crawls/${plain}/content?url=${encodeURIComponent(`${root}article.html`)}`)).status).toBe(
      200,
    );
    const some = await createCrawl({ seeds: [`${root}article.html`], maxDepth: 0, extract: { formats: ['metadata'] } });
    await waitForCrawl(some);
    const res = await api(
      `/v1/crawls/${some}/content?url=${encodeURIComponent(`${root}article.html`)}&format=markdown`,
    );
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/formats does not include it/);
  });

  it('refuses bad specs with a 400 that says what is wrong', async () => {
    const bad: [unknown, RegExp][] = [
      [{ formats: ['pdf'] }, /extract\.formats\.0/],
      [{ include: ['a[[['] }, /invalid CSS selector/],
      [{ mainContent: { selector: '' } }, /mainContent/],
      [{ fields: { x: { selector: 'p', type: 'date' } } }, /extract\.fields\.x\.type/],
      [
        { fields: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, { selector: 'p' }])) },
        /at most 100 fields/,
      ],
      [
        {
          fields: {
            a: {
              selector: 'p',
              fields: {
                b: {
                  selector: 'p',
                  fields: { c: { selector: 'p', fields: { d: { selector: 'p', fields: { e: { selector: 'p' } } } } } },
                },
              },
            },
          },
        },
        /nest at most 4/,
      ],
      [{ fields: { 'bad name': { selector: 'p' } } }, /field names/],
      [{ formats: ['markdown'], extra: true }, /extract/],
    ];
    for (const [extract, message] of bad) {
      const res = await api('/v1/crawls', {
        method: 'POST',
        body: JSON.stringify({ seeds: ['https://example.com/'], extract }),
      });
      const body = (await res.json()) as { error: { message: string } };
      expect(res.status, JSON.stringify(extract).slice(0, 80)).toBe(400);
      expect(body.error.message).toMatch(message);
    }
  });
});

describe('recrawls with extract', () => {
  it('count a page unchanged when its content hash is the same, though the server ignores conditional requests', async () => {
    const root = `${site()}/t/${namespace()}/docs/`;
    const body = {
      everySeconds: 600,
      crawl: {
        seeds: [`${root}footer-clock.html`, `${root}news.html`, `${root}article.html`],
        maxDepth: 0,
        extract: { formats: ['text'] },
      },
    };
    const res = await api('/v1/schedules', { method: 'POST', body: JSON.stringify(body) });
    const schedule = (await res.json()) as { id: string };
    const now = Date.now();
    const [first] = await runDueSchedules(env, now);
    await waitForCrawl(first ?? '');
    const [second] = await runDueSchedules(env, now + 601_000);
    await waitForCrawl(second ?? '');
    const view = (await (await api(`/v1/crawls/${second}`)).json()) as {
      changes: { new: number; changed: number; unchanged: number };
    };
    // footer-clock.html changes only outside its main content; news.html changes inside it.
    expect(view.changes).toMatchObject({ new: 0, changed: 1, unchanged: 2 });
    expect((await getCrawl(second ?? '')).counts.stored).toBe(3);
    // What changed in news.html, line by line; footer-clock.html's clock is outside its content: no diff.
    const diff = async (page: string, format = 'text') =>
      api(`/v1/crawls/${second}/diff?url=${encodeURIComponent(`${root}${page}`)}&format=${format}`);
    const news = (await (await diff('news.html')).json()) as { kind: string; diff: string; added: number };
    expect(news.kind).toBe('changed');
    expect(news.diff).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@\n/);
    expect(news.diff).toMatch(/^-.+\n\+.+$/m);
    expect(news.added).toBeGreaterThan(0);
    expect(await (await diff('footer-clock.html')).json()).toMatchObject({ kind: 'unchanged', diff: '', fields: [] });
    expect((await diff('news.html', 'markdown')).status).toBe(404);
    expect((await api(`/v1/crawls/${first}/diff?url=${encodeURIComponent(`${root}news.html`)}`)).status).toBe(409);
    await api(`/v1/schedules/${schedule.id}`, { method: 'DELETE' });
  });
});

describe('exports of a crawl with extract', () => {
  it('JSONL carries each record and its outputs; CSV adds the facts and a column per top-level field', async () => {
    const root = `${site()}/t/${namespace()}/docs/`;
    const id = await createCrawl({
      seeds: [`${root}product.html`, `${root}article.html`],
      maxDepth: 0,
      extract: { formats: ['markdown', 'text', 'metadata'], fields: SPEC.fields },
    });
    await waitForCrawl(id);
    const lines = (await (await api(`/v1/crawls/${id}/export?format=jsonl`)).text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.url)).toEqual([`${root}article.html`, `${root}product.html`]);
    for (const line of lines) {
      const url = String(line.url);
      const { url: _url, status: _status, contentType: _type, fetchedAt: _at, ...rest } = await record(id, url);
      expect(line).toMatchObject(rest);
      expect(line.markdown).toBe((await content(id, url, 'markdown')).body);
      expect(line.text).toBe((await content(id, url, 'text')).body);
    }
    const csv = (await (await api(`/v1/crawls/${id}/export?format=csv`)).text()).split('\r\n');
    expect(csv[0]).toBe(
      'url,status,contentType,title,depth,bytes,fetchedAt,rendered,redirectTo,etag,lastModified,change,cachedFrom,duplicateOf,duplicateReason,similarity,stored,description,language,wordCount,contentHash,name,price,rating,tags,image,specs',
    );
    expect(csv[2]).toContain(',Desk Lamp,1299,,"[""home"",""light""]",');
  });
});

describe('POST /v1/scrape', () => {
  it('answers the same record a crawl stores, with the outputs inline', async () => {
    const root = `${site()}/t/${namespace()}/docs/`;
    const extract = { formats: ['markdown', 'text', 'metadata', 'jsonLd'], fields: SPEC.fields };
    const id = await createCrawl({ seeds: [`${root}product.html`], maxDepth: 0, extract });
    await waitForCrawl(id);
    const res = await api('/v1/scrape', {
      method: 'POST',
      body: JSON.stringify({ url: `${root}product.html`, extract }),
    });
    expect(res.status).toBe(200);
    const scraped = (await res.json()) as Record<string, unknown>;
    // A crawl's record says whether it is a duplicate's (the page's own here); a scrape has no crawl to say it of.
    const { fetchedAt: _a, cachedFrom: _c, duplicateOf, ...crawled } = await record(id, `${root}product.html`);
    expect(duplicateOf).toBeNull();
    const { fetchedAt: _b, finalUrl, markdown, text, rendered, screenshot, cached, ...rest } = scraped;
    expect(rest).toEqual(crawled);
    expect(cached).toBe(true); // the crawl's copy, fetched moments ago (the page cache: maxAge 300 s by default)
    expect([rendered, screenshot]).toEqual([null, null]); // a server-rendered page, no screenshot asked for
    expect(finalUrl).toBe(`${root}product.html`);
    expect(markdown).toBe((await content(id, `${root}product.html`, 'markdown')).body);
    expect(text).toBe((await content(id, `${root}product.html`, 'text')).body);
  });

  it('follows redirects, answers a 404 page as the page it is, and refuses what a crawl would refuse', async () => {
    const ns = namespace();
    const misc = `${site()}/t/${ns}/misc/`;
    const moved = (await (
      await api('/v1/scrape', { method: 'POST', body: JSON.stringify({ url: `${misc}moved` }) })
    ).json()) as {
      finalUrl: string;
      status: number;
    };
    expect(moved).toMatchObject({ finalUrl: `${misc}ok2.html`, status: 200 });
    // A page the site answers 404 is answered, with its status and nothing extracted: the status is the page's.
    const missing = await api('/v1/scrape', { method: 'POST', body: JSON.stringify({ url: `${misc}missing.html` }) });
    expect(missing.status).toBe(200);
    expect(await missing.json()).toMatchObject({
      url: `${misc}missing.html`,
      finalUrl: `${misc}missing.html`,
      status: 404,
      cached: false,
      warnings: ['the site answered HTTP 404: nothing extracted (an error page is not kept)'],
    });
    // A private address is a 422, named as the scrape's URL (a scrape has no seed).
    const refused = await api('/v1/scrape', { method: 'POST', body: JSON.stringify({ url: 'http://10.0.0.1/' }) });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      error: {
        code: 'private_address',
        message: 'http://10.0.0.1/ is a private network address; allow it with ALLOW_PRIVATE_NETWORKS to scrape it',
      },
    });
    const cases: [unknown, number, string][] = [
      [{ url: 'not a url' }, 400, 'invalid_request'],
      [{ url: `${misc}ok.html`, extract: { formats: [] } }, 400, 'invalid_request'],
    ];
    for (const [body, status, code] of cases) {
      const res = await api('/v1/scrape', { method: 'POST', body: JSON.stringify(body) });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
    }
  });
});

describe('POST /v1/crawls/:id/reextract', () => {
  it('re-runs a new spec over the stored bodies without a request to the site; records then follow it', async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/docs/`;
    // A plain crawl (extract: null): no record until the re-extraction.
    const id = await createCrawl({ seeds: [root], maxDepth: 1, extract: null });
    await waitForCrawl(id);
    expect((await api(`/v1/crawls/${id}/record?url=${encodeURIComponent(`${root}product.html`)}`)).status).toBe(404);
    const requests = (await siteLog(ns)).length;
    const usage = async () =>
      (
        (await (await api(`/v1/crawls/${id}/usage`)).json()) as {
          operations: { r2ClassA: number; r2ClassB: number; d1RowsWritten: number };
        }
      ).operations;
    await new Promise((r) => setTimeout(r, 300)); // the crawl's last consumer reports its usage after its last chunk
    const before = await usage();

    const res = await api(`/v1/crawls/${id}/reextract`, {
      method: 'POST',
      body: JSON.stringify({ extract: { formats: ['markdown', 'metadata'], fields: SPEC.fields } }),
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ id, extraction: { status: 'running', done: 0, total: 7 } });
    let view: { extraction?: { status: string; done: number; total: number } } = {};
    for (let i = 0; i < 100 && view.extraction?.status !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      view = (await (await api(`/v1/crawls/${id}`)).json()) as typeof view;
    }
    expect(view.extraction).toEqual({ status: 'completed', done: 7, total: 7 });
    expect((await record(id, `${root}product.html`)).fields).toMatchObject({ name: 'Desk Lamp', price: 1299 });
    expect((await content(id, `${root}article.html`, 'markdown')).body).toMatch(/^# Getting started/);
    expect((await siteLog(ns)).length).toBe(requests);
    // The re-extraction is counted with the crawl: one records object written, the stored segments read, 7 rows updated (index.html is a duplicate: nothing to re-extract).
    const after = await usage();
    expect(after.r2ClassA - before.r2ClassA).toBe(1);
    expect(after.r2ClassB - before.r2ClassB).toBeGreaterThanOrEqual(1);
    expect(after.d1RowsWritten - before.d1RowsWritten).toBeGreaterThanOrEqual(7);

    // Again with another spec: the records follow the newest one.
    await api(`/v1/crawls/${id}/reextract`, {
      method: 'POST',
      body: JSON.stringify({ extract: { formats: ['text'], fields: { h: { selector: 'h1' } } } }),
    });
    for (let i = 0; i < 100; i++) {
      const again = (await (await api(`/v1/crawls/${id}`)).json()) as typeof view;
      if (again.extraction?.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    // The crawl shows the spec its records now follow, not the one it started with.
    expect((await getCrawl(id)).config.extract).toMatchObject({ formats: ['text'], fields: { h: { selector: 'h1' } } });
    const product = await record(id, `${root}product.html`);
    expect(product.fields).toEqual({ h: 'Desk Lamp' });
    expect(product.metadata).toBeUndefined();
    const csvHead = (await (await api(`/v1/crawls/${id}/export?format=csv`)).text()).split('\r\n')[0];
    expect(csvHead?.endsWith(',description,language,wordCount,contentHash,h')).toBe(true);
  });

  it('refuses a running crawl and a bad spec', async () => {
    const id = await createCrawl({ seeds: [`${site()}/t/${namespace()}/pure-300-d200/`] });
    const running = await api(`/v1/crawls/${id}/reextract`, {
      method: 'POST',
      body: JSON.stringify({ extract: { formats: ['text'] } }),
    });
    expect(running.status).toBe(409);
    await api(`/v1/crawls/${id}`, { method: 'DELETE' });
    const bad = await api(`/v1/crawls/${id}/reextract`, {
      method: 'POST',
      body: JSON.stringify({ extract: { formats: ['text'], include: ['::nope('] } }),
    });
    expect(bad.status).toBe(400);
  });
});
