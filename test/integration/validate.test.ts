import { describe, expect, it } from 'vitest';
import { crawlValidationSchema, scheduleValidationSchema } from '../../src/api/responses';
import { api } from '../support/api';

const check = async (path: string, body: unknown) => {
  const res = await api(path, { method: 'POST', body: JSON.stringify(body) });
  expect(res.status, JSON.stringify(body)).toBe(200);
  return (await res.json()) as Record<string, unknown>;
};

describe('POST /v1/crawls/validate', () => {
  it('answers the crawl as it would start, defaults filled in, and starts nothing', async () => {
    const before = ((await (await api('/v1/crawls?limit=1000')).json()) as { crawls: unknown[] }).crawls.length;
    const answer = crawlValidationSchema.parse(
      await check('/v1/crawls/validate', {
        seeds: ['https://example.com/a', 'https://example.com/a'],
        maxPages: 10,
        extract: { formats: ['markdown'], fields: { price: { selector: '.price', type: 'number' } } },
        webhook: { url: 'https://hooks.example.com/x', secret: 'a-secret-of-16-chars' },
      }),
    );
    expect(answer.valid).toBe(true);
    if (!answer.valid) return;
    expect(answer.config.seeds).toEqual(['https://example.com/a']);
    expect(answer.config.maxPages).toBe(10);
    expect(answer.config.scope).toBe('same-host');
    expect(answer.config.extract?.mainContent).toBe(true);
    expect(answer.config.webhook).toEqual({ url: 'https://hooks.example.com/x', format: 'edgecrawl' });
    const after = ((await (await api('/v1/crawls?limit=1000')).json()) as { crawls: unknown[] }).crawls.length;
    expect(after).toBe(before);
  });

  it('lists every issue with the path of its field', async () => {
    const answer = crawlValidationSchema.parse(
      await check('/v1/crawls/validate', {
        seeds: ['ftp://x/'],
        maxPages: 0,
        extract: { formats: ['pdf'], fields: { price: { selector: 'p[' } } },
        nope: 1,
      }),
    );
    expect(answer.valid).toBe(false);
    if (answer.valid) return;
    const paths = answer.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(
      expect.arrayContaining(['seeds.0', 'maxPages', 'extract.formats.0', 'extract.fields.price.selector', '']),
    );
    expect(answer.issues.find((i) => i.path.join('.') === 'extract.fields.price.selector')?.message).toMatch(
      /invalid CSS selector/,
    );
  });

  it('refuses what starting would refuse: an unknown previous crawl', async () => {
    const answer = crawlValidationSchema.parse(
      await check('/v1/crawls/validate', {
        seeds: ['https://example.com/'],
        previousCrawlId: '00000000-0000-4000-8000-000000000000',
      }),
    );
    expect(answer).toEqual({
      valid: false,
      issues: [{ path: ['previousCrawlId'], message: 'no crawl with id 00000000-0000-4000-8000-000000000000' }],
    });
  });

  it('is a 400 for a body that is not JSON, and needs the token', async () => {
    expect((await api('/v1/crawls/validate', { method: 'POST', body: '{' })).status).toBe(400);
    expect((await api('/v1/crawls/validate', { method: 'POST', body: '{}', token: null })).status).toBe(401);
  });
});

describe('POST /v1/schedules/validate', () => {
  it('answers the schedule and its next runs, and creates nothing', async () => {
    const answer = scheduleValidationSchema.parse(
      await check('/v1/schedules/validate', { cron: '0 6 * * *', crawl: { seeds: ['https://example.com/'] } }),
    );
    expect(answer.valid).toBe(true);
    if (!answer.valid) return;
    expect(answer.config.cron).toBe('0 6 * * *');
    expect(answer.nextRuns).toHaveLength(3);
    for (const run of answer.nextRuns) expect(run).toMatch(/T06:00:00\.000Z$/);
    const list = (await (await api('/v1/schedules')).json()) as { schedules: { cron: string | null }[] };
    expect(list.schedules.some((s) => s.cron === '0 6 * * *')).toBe(false);

    const every = scheduleValidationSchema.parse(
      await check('/v1/schedules/validate', { everySeconds: 3600, crawl: { seeds: ['https://example.com/'] } }),
    );
    if (!every.valid) throw new Error('expected valid');
    const [a, b] = every.nextRuns.map((t) => Date.parse(t));
    expect((b ?? 0) - (a ?? 0)).toBe(3_600_000);
  });

  it("lists issues with their paths, the crawl's under crawl", async () => {
    const answer = scheduleValidationSchema.parse(
      await check('/v1/schedules/validate', {
        cron: '61 * * * *',
        crawl: { seeds: ['https://example.com/'], extract: { formats: ['nope'] } },
      }),
    );
    if (answer.valid) throw new Error('expected issues');
    expect(answer.issues.map((i) => i.path.join('.'))).toEqual(
      expect.arrayContaining(['cron', 'crawl.extract.formats.0']),
    );
    const neither = scheduleValidationSchema.parse(
      await check('/v1/schedules/validate', { crawl: { seeds: ['https://example.com/'] } }),
    );
    expect(neither).toEqual({
      valid: false,
      issues: [{ path: [], message: 'give exactly one of cron or everySeconds' }],
    });
  });
});
