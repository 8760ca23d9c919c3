import { describe, expect, it } from 'vitest';
import { crawlValidationSchema, scheduleValidationSchema } from '../../src/api/responses';
import { parseStoredConfig } from '../../src/crawl-config';
import { api, createCrawl, getCrawl, namespace, site, waitForCrawl } from '../support/api';

/** What a crawl given only its seeds stores (issue 31, item 4): markdown and metadata, as the CLI and MCP tool do. */

const DEFAULT_EXTRACT = { formats: ['markdown', 'metadata'], mainContent: true, include: [], exclude: [], fields: {} };

const post = async (path: string, body: unknown) => {
  const res = await api(path, { method: 'POST', body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('a crawl given only its seeds', () => {
  it('extracts markdown and metadata: its pages have markdown, llms-full.txt holds it', async () => {
    const root = `${site()}/t/${namespace()}/tree-6/`;
    const id = await createCrawl({ seeds: [root] });
    const crawl = await waitForCrawl(id);
    expect(crawl.config.extract).toEqual(DEFAULT_EXTRACT);
    const markdown = await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(root)}&format=markdown`);
    expect(markdown.status).toBe(200);
    expect((await markdown.text()).trim()).not.toBe('');
    const record = (await (await api(`/v1/crawls/${id}/record?url=${encodeURIComponent(root)}`)).json()) as {
      metadata?: { title?: string };
    };
    expect(record.metadata?.title).toBe('Tree tree-6');
    const full = await api(`/v1/crawls/${id}/llms-full.txt`);
    expect(full.status).toBe(200);
    expect(await full.text()).toContain(`Source: ${root}`);
  });

  it('extract: null keeps the plain crawl (raw body, title, links), and llms-full.txt says what to do', async () => {
    const root = `${site()}/t/${namespace()}/tree-6/`;
    const id = await createCrawl({ seeds: [root], extract: null });
    const crawl = await waitForCrawl(id);
    expect(crawl.config.extract).toBeNull();
    const raw = await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(root)}`);
    expect(await raw.text()).toContain('<title>Tree tree-6</title>');
    expect((await api(`/v1/crawls/${id}/record?url=${encodeURIComponent(root)}`)).status).toBe(404);
    const full = await api(`/v1/crawls/${id}/llms-full.txt`);
    expect(full.status).toBe(409);
    const error = ((await full.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('no_markdown');
    expect(error.message).toMatch(/extract/);
    expect(error.message).toContain(`/v1/crawls/${id}/reextract`);
    // llms.txt needs no markdown: titles and descriptions are on the page rows.
    expect(await (await api(`/v1/crawls/${id}/llms.txt`)).text()).toContain(`](${root})`);
  });

  it('llms-full.txt of a crawl with no page stored yet is no empty 200', async () => {
    const id = await createCrawl({ seeds: [`${site()}/t/${namespace()}/misc/404.html`] });
    await waitForCrawl(id);
    const full = await api(`/v1/crawls/${id}/llms-full.txt`);
    expect(full.status).toBe(404);
    expect(((await full.json()) as { error: { message: string } }).error.message).toMatch(/no stored HTML page/);
  });

  it('is what the validate routes and schedules answer too', async () => {
    const crawl = crawlValidationSchema.parse(
      (await post('/v1/crawls/validate', { seeds: ['https://example.com/'] })).body,
    );
    expect(crawl.valid && crawl.config.extract).toEqual(DEFAULT_EXTRACT);
    const plain = crawlValidationSchema.parse(
      (await post('/v1/crawls/validate', { seeds: ['https://example.com/'], extract: null })).body,
    );
    expect(plain.valid && plain.config.extract).toBeNull();
    const schedule = scheduleValidationSchema.parse(
      (await post('/v1/schedules/validate', { everySeconds: 3600, crawl: { seeds: ['https://example.com/'] } })).body,
    );
    expect(schedule.valid && schedule.config.crawl.extract).toEqual(DEFAULT_EXTRACT);
    const created = await post('/v1/schedules', {
      everySeconds: 3600,
      crawl: { seeds: ['https://example.com/'] },
    });
    expect(created.status).toBe(201);
    expect((created.body.crawl as { extract: unknown }).extract).toEqual(DEFAULT_EXTRACT);
    await api(`/v1/schedules/${String(created.body.id)}`, { method: 'DELETE' });
  });

  it('a stored config without extract (written before extraction existed) stays a plain crawl', async () => {
    expect(parseStoredConfig(JSON.stringify({ seeds: ['https://example.com/'] }), 'test').extract).toBeNull();
    const id = await createCrawl({ seeds: [`${site()}/t/${namespace()}/tree-2/`] });
    expect((await getCrawl(id)).config.extract).toEqual(DEFAULT_EXTRACT);
  });
});
