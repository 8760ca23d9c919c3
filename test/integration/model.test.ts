import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../src/api/app';
import { recordSchema, usageSchema } from '../../src/api/responses';
import { runDueSchedules } from '../../src/jobs/schedules';
import { allPages, api, createCrawl, namespace, site, waitForCrawl } from '../support/api';
import { queueMessage, runQueue } from '../support/fixtures';
import { PRODUCT_SCHEMA, PRODUCTS, productFacts } from '../support/product-site';

// The model step (formats json and summary, docs/models.md) against the fake model (test/support/fake-llm.ts), which
// answers from the prompt it is sent, as the test sites stand in for the web.

const llmOrigin = () => new URL(inject('llm')).origin;

const recordedSchema = z.array(
  z.object({ headers: z.record(z.string(), z.string()), body: z.record(z.string(), z.unknown()) }),
);

/**
 * The requests the fake model received whose messages mention `text` (and `ns`, when given: other files crawl the same
 * product pages, and the fake model serves every file).
 */
async function modelRequests(text: string, ns = '') {
  const res = await fetch(`${llmOrigin()}/__requests`);
  const all = recordedSchema.parse(await res.json());
  return all.filter((r) => JSON.stringify(r.body.messages).includes(text) && JSON.stringify(r.body).includes(ns));
}

async function recordOf(id: string, url: string) {
  const res = await api(`/v1/crawls/${id}/record?url=${encodeURIComponent(url)}`);
  expect(res.status, url).toBe(200);
  return recordSchema.parse(await res.json());
}

const extract = {
  formats: ['markdown', 'json', 'summary'],
  json: { schema: PRODUCT_SCHEMA },
};

async function crawlProducts(ns: string, more: Record<string, unknown> = {}) {
  const base = `${site()}/t/${ns}/products/`;
  const id = await createCrawl({ seeds: [base], extract, ...more });
  const crawl = await waitForCrawl(id);
  return { base, id, crawl };
}

describe('the model step', () => {
  it('stores schema-valid JSON and a summary for every product page, one answer repaired, a 429 retried', async () => {
    const ns = namespace();
    const { base, id, crawl } = await crawlProducts(ns);
    expect(crawl.status).toBe('completed');
    expect(crawl.counts).toMatchObject({ stored: PRODUCTS + 1, failed: 0 });
    for (let n = 1; n <= PRODUCTS; n++) {
      const record = await recordOf(id, `${base}p/${n}.html`);
      expect(record.json, `p/${n}`).toEqual(productFacts(n));
      expect(record.summary).toMatch(/desk lamp/);
      expect(record.model).toEqual({ name: 'fake-model', answer: 'model' });
      expect(record.fieldErrors?.json).toBeUndefined();
    }
    // The listing has no price or SKU: asked again with the validation error, then stored with why.
    const listing = await recordOf(id, base);
    expect(listing.json).toBeUndefined();
    expect(listing.fieldErrors?.json).toMatch(/price|sku/);

    // What went to the model: the page's markdown, the schema, temperature 0, the key as a bearer token.
    const [sent] = await modelRequests(`SKU-0004`, ns);
    expect(sent?.headers.authorization).toBe('Bearer test-llm-key');
    expect(sent?.body).toMatchObject({ model: 'fake-model', temperature: 0 });
    expect(JSON.stringify(sent?.body.messages)).toContain('# Lamp 4');
    expect(JSON.stringify(sent?.body.response_format)).toContain('"sku"');
    // The malformed first answer was asked again once, with the error.
    expect((await modelRequests('SKU-0002', ns)).length).toBe(2);
    // The 429 came back to the queue, not to the site: the page was fetched once.
    expect((await modelRequests('SKU-0003', ns)).length).toBe(2);
    const log = await (await fetch(`${site()}/__log/${ns}`)).text();
    expect(log.match(/p\/3\.html/g)?.length).toBe(1);

    // Exports carry them: JSONL the record's json and summary, CSV a column per property of the schema and summary.
    const lines = (await (await api(`/v1/crawls/${id}/export?format=jsonl`)).text()).trim().split('\n');
    const line = z
      .object({ url: z.string(), json: z.unknown().optional(), summary: z.string().optional() })
      .array()
      .parse(lines.map((l) => JSON.parse(l)))
      .find((l) => l.url === `${base}p/4.html`);
    expect(line).toMatchObject({ json: productFacts(4), summary: expect.stringMatching(/desk lamp/) });
    const csv = (await (await api(`/v1/crawls/${id}/export?format=csv`)).text()).trim().split('\r\n');
    const header = csv[0]?.split(',') ?? [];
    expect(header.slice(-5)).toEqual(['json.name', 'json.price', 'json.sku', 'json.inStock', 'summary']);
    const row = csv.find((r) => r.startsWith(`${base}p/4.html,`)) ?? '';
    expect(row).toContain(',Lamp 4,40.5,SKU-0004,false,');

    // Usage counts the calls and the tokens.
    const usage = usageSchema.parse(await (await api(`/v1/crawls/${id}/usage`)).json());
    expect(usage.model.calls).toBeGreaterThanOrEqual(PRODUCTS + 2);
    expect(usage.model.tokensIn).toBeGreaterThan(100);
    expect(usage.model.tokensOut).toBeGreaterThan(10);
  });

  it('a recrawl of the unchanged site reuses every answer: no model call', async () => {
    const ns = namespace();
    const first = await crawlProducts(ns);
    const before = (await modelRequests(`/t/${ns}/products/`)).length;
    const { id, base, crawl } = await crawlProducts(ns, { previousCrawlId: first.id });
    expect(crawl.status).toBe('completed');
    expect((await modelRequests(`/t/${ns}/products/`)).length).toBe(before);
    const record = await recordOf(id, `${base}p/5.html`);
    expect(record.json).toEqual(productFacts(5));
    expect(record.model).toEqual({ name: 'fake-model', answer: 'cached' });
    const usage = usageSchema.parse(await (await api(`/v1/crawls/${id}/usage`)).json());
    expect(usage.model).toMatchObject({ calls: 0, tokensIn: 0 });
    expect(usage.model.cached).toBeGreaterThanOrEqual(PRODUCTS);
  });

  it("a schedule's next run answers the pages maxModelPages left out, though they answer 304", async () => {
    const ns = namespace();
    const root = `${site()}/t/${ns}/cond-3/`;
    const extract = { formats: ['json'], json: { prompt: 'The page.' } };
    const res = await api('/v1/schedules', {
      method: 'POST',
      body: JSON.stringify({ everySeconds: 3600, crawl: { seeds: [root], extract, maxModelPages: 2 } }),
    });
    const { id: schedule } = z.object({ id: z.string() }).parse(await res.json());
    const run = async () => {
      await env.DB.prepare('UPDATE schedules SET next_run_at = 0 WHERE id = ?').bind(schedule).run();
      const [id] = await runDueSchedules(env);
      expect(id).toBeDefined();
      expect((await waitForCrawl(id as string)).status).toBe('completed');
      const pages = await allPages(id as string);
      return Promise.all(pages.map((p) => recordOf(id as string, p.url)));
    };
    const first = await run();
    expect(first.filter((r) => r.json !== undefined)).toHaveLength(2);
    const before = (await modelRequests(`/t/${ns}/cond-3/`)).length;
    const second = await run();
    // Every page answered 304, kept its record, and those without an answer went to the model: 2 of 4.
    const cond = z.array(z.object({ path: z.string(), status: z.number() }));
    const log = cond.parse(await (await fetch(`${site()}/__cond/${ns}`)).json());
    expect(log.slice(-4).map((e) => e.status)).toEqual([304, 304, 304, 304]);
    expect(second.filter((r) => r.json !== undefined)).toHaveLength(4);
    // The first run's warning went with the answer that replaced it.
    expect(second.flatMap((r) => r.warnings).filter((w) => w.includes('maxModelPages'))).toEqual([]);
    expect((await modelRequests(`/t/${ns}/cond-3/`)).length - before).toBe(2);
  });

  it('re-extraction with json answers the stored pages, with no request to the site', async () => {
    const ns = namespace();
    const base = `${site()}/t/${ns}/products/`;
    const id = await createCrawl({ seeds: [base] });
    await waitForCrawl(id);
    const fetched = (await (await fetch(`${site()}/__log/${ns}`)).text()).length;
    const res = await api(`/v1/crawls/${id}/reextract`, {
      method: 'POST',
      body: JSON.stringify({ extract: { formats: ['markdown', 'json'], json: { schema: PRODUCT_SCHEMA } } }),
    });
    expect(res.status).toBe(202);
    // The model step follows the re-extraction: the crawl counts its pages pending until it has answered them.
    let pending = 1;
    for (let i = 0; i < 100 && pending > 0; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const view = z
        .object({ pending: z.number(), extraction: z.object({ status: z.string() }).optional() })
        .parse(await (await api(`/v1/crawls/${id}`)).json());
      pending = view.extraction?.status === 'completed' ? view.pending : 1;
    }
    expect(pending).toBe(0);
    expect((await recordOf(id, `${base}p/6.html`)).json).toEqual(productFacts(6));
    expect((await (await fetch(`${site()}/__log/${ns}`)).text()).length).toBe(fetched);
  });

  it("a cancelled crawl's pages, and a deployment whose model is misconfigured, are recorded with why, unasked", async () => {
    const ns = namespace();
    const base = `${site()}/t/${ns}/products/`;
    const id = await createCrawl({ seeds: [base] });
    await waitForCrawl(id);
    // The crawl as if it had asked for json and been cancelled: its model messages then arrive.
    const ask = JSON.stringify({ ...extract, mainContent: true, include: [], exclude: [], fields: {} });
    await env.DB.prepare("UPDATE crawls SET status = 'cancelled', extract = ? WHERE id = ?").bind(ask, id).run();
    const before = (await modelRequests(`/t/${ns}/`)).length;
    const cancelled = await runQueue('edgecrawl-model', [queueMessage({ crawlId: id, url: `${base}p/1.html` })]);
    expect(cancelled.explicitAcks).toHaveLength(1);
    expect((await recordOf(id, `${base}p/1.html`)).warnings).toContain(
      'model: the crawl was cancelled before the model read this page',
    );
    await env.DB.prepare("UPDATE crawls SET status = 'completed' WHERE id = ?").bind(id).run();
    const misconfigured = { ...env, LLM_BASE_URL: 'ftp://models.test/v1' };
    const result = await runQueue(
      'edgecrawl-model',
      [queueMessage({ crawlId: id, url: `${base}p/2.html` })],
      misconfigured,
    );
    expect(result.explicitAcks).toHaveLength(1);
    const record = await recordOf(id, `${base}p/2.html`);
    expect(record.model).toEqual({ name: 'none', answer: 'none' });
    expect(record.warnings.join(' ')).toMatch(/model: the language model is misconfigured: LLM_BASE_URL/);
    expect((await modelRequests(`/t/${ns}/`)).length).toBe(before);
  });

  it('maxModelPages caps the pages sent to the model; the rest are stored with a warning', async () => {
    const ns = namespace();
    const { id } = await crawlProducts(ns, { maxModelPages: 2 });
    const pages = await allPages(id);
    const records = await Promise.all(pages.map((p) => recordOf(id, p.url)));
    const answered = records.filter((r) => r.model?.answer === 'model');
    expect(answered.length).toBe(2);
    const capped = records.filter((r) => r.warnings.some((w) => w.includes('maxModelPages')));
    expect(capped.length).toBe(PRODUCTS + 1 - 2);
    // The markdown was asked for, and kept; a capped page has no json.
    expect(capped[0]?.json).toBeUndefined();
  });

  it('a scrape with a prompt alone answers a JSON object', async () => {
    const url = `${site()}/t/${namespace()}/products/p/1.html`;
    const res = await api('/v1/scrape', {
      method: 'POST',
      body: JSON.stringify({ url, extract: { formats: ['json'], json: { prompt: 'The product facts.' } } }),
    });
    const body = z
      .object({ json: z.record(z.string(), z.unknown()), markdown: z.string().optional() })
      .parse(await res.json());
    expect(res.status).toBe(200);
    expect(body.json).toMatchObject({ title: 'Lamp 1' });
    // The markdown was made for the model, not asked for: not answered.
    expect(body.markdown).toBeUndefined();
  });

  it('a scrape without metadata tells the model the page title, as a crawl does', async () => {
    const ns = namespace();
    const url = `${site()}/t/${ns}/products/p/5.html`;
    const res = await api('/v1/scrape', {
      method: 'POST',
      body: JSON.stringify({ url, maxAge: 0, extract: { formats: ['summary'], summary: { prompt: `About ${ns}.` } } }),
    });
    expect(res.status).toBe(200);
    const [sent] = await modelRequests(ns);
    expect(JSON.stringify(sent?.body.messages)).toContain('Page title: Lamp 5\\n');
  });

  it('refuses json or summary with a 400 where no model is configured', async () => {
    const app = createApp();
    const bare = { ...env, LLM_BASE_URL: undefined, LLM_MODEL: undefined, AI: undefined };
    for (const [path, body] of [
      ['/v1/crawls', { seeds: ['https://example.com/'], extract: { formats: ['summary'] } }],
      ['/v1/scrape', { url: 'https://example.com/', extract: { formats: ['json'], json: { prompt: 'facts' } } }],
    ] as const) {
      const res = await app.fetch(
        new Request(`http://x${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer test-token' },
          body: JSON.stringify(body),
        }),
        bare,
      );
      expect(res.status, path).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'model_not_configured' } });
    }
  });

  it('refuses a schema that is not a JSON Schema, and json without a schema or prompt', async () => {
    for (const json of [{ schema: { type: 'widget' } }, {}]) {
      const res = await api('/v1/crawls', {
        method: 'POST',
        body: JSON.stringify({ seeds: ['https://example.com/'], extract: { formats: ['json'], json } }),
      });
      expect(res.status, JSON.stringify(json)).toBe(400);
    }
  });
});
