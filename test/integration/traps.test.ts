import { env, exports } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { changeListSchema, errorListSchema } from '../../src/api/responses';
import { allPages, api, createCrawl, namespace, site, siteLog, waitForCrawl } from '../support/api';
import { realPaths, spentInTrap, type TrapKind } from '../support/trap-sites';

/** At most this many requests go into any trap (issue 43's goal, with every real page stored). */
const TRAP_BUDGET = 25;

/** Crawls a trap site with the defaults a user gets; what it stored, its errors, and the requests it made. */
async function crawlTrap(kind: TrapKind, request: Record<string, unknown> = {}) {
  const ns = namespace();
  const base = `/t/${ns}/trap-${kind}/`;
  const id = await createCrawl({ seeds: [`${site()}${base}`], ...request });
  const crawl = await waitForCrawl(id);
  const rests = (await siteLog(ns))
    .map((entry) => entry.split(' ')[1] ?? '')
    .filter((path) => path.startsWith(base))
    .map((path) => path.slice(base.length));
  const pages = await allPages(id);
  const errors = errorListSchema.parse(await (await api(`/v1/crawls/${id}/errors?limit=1000`)).json()).errors;
  const stored = new Set(pages.filter((p) => p.duplicateOf === null && p.status === 200).map((p) => p.url));
  return { id, crawl, base: `${site()}${base}`, rests, stored, pages, errors };
}

/** Every real page of the site stored, under its own URL (session ids stripped) or a URL of it with a query. */
function expectRealPagesStored(kind: TrapKind, base: string, stored: ReadonlySet<string>, pages: { url: string }[]) {
  const urls = pages.map((p) => p.url);
  for (const path of realPaths(kind)) {
    const url = `${base}${path}`;
    const found = stored.has(url) || urls.some((u) => u === url || u.startsWith(`${url}?`));
    expect(found, `real page ${path || '(home)'} of ${kind}`).toBe(true);
  }
}

describe('crawler traps, defended by default', () => {
  it.each(['calendar', 'agenda', 'facets', 'loop', 'pages', 'soft404'] as const)(
    '%s: at most 25 requests in the trap, every real page stored, the trap explained',
    async (kind) => {
      const { crawl, base, rests, stored, pages, errors } = await crawlTrap(kind);
      expect(crawl.status).toBe('completed');
      const spent = rests.filter((rest) => spentInTrap(kind, rest));
      expect(spent.length, `requests in the ${kind} trap: ${spent.join(' ')}`).toBeLessThanOrEqual(TRAP_BUDGET);
      expectRealPagesStored(kind, base, stored, pages);
      const code = kind === 'soft404' ? 'soft_404' : 'trap';
      expect(
        errors.some((e) => e.code === code),
        `an error coded ${code}`,
      ).toBe(true);
      // Counts agree with what is listed: every URL ended one way.
      const { discovered, stored: kept, duplicates, failed, skipped } = crawl.counts;
      expect(kept + duplicates + failed + skipped).toBe(discovered);
    },
  );

  it('session ids: stripped, so no request carries one and every page is fetched once', async () => {
    const { crawl, base, rests, stored, pages } = await crawlTrap('session');
    expect(crawl.status).toBe('completed');
    expect(rests.filter((rest) => spentInTrap('session', rest))).toEqual([]);
    expectRealPagesStored('session', base, stored, pages);
    expect(new Set(rests).size).toBe(rests.length);
  });

  it('a parameter no list names that never changes a page is learned and folded, its queued URLs ended at once', async () => {
    // Paced, so that URLs of the parameter wait queued (each delayed to its host's pace) when it is found out.
    const { crawl, base, rests, pages, errors } = await crawlTrap('visit', { hostIntervalMs: 200 });
    const { discovered, stored, duplicates, failed, skipped } = crawl.counts;
    expect(stored + duplicates + failed + skipped).toBe(discovered);
    expect(crawl.pending).toBe(0);
    expect(crawl.status).toBe('completed');
    expect(rests.filter((rest) => spentInTrap('visit', rest)).length).toBeLessThanOrEqual(TRAP_BUDGET);
    expectRealPagesStored('visit', base, new Set(), pages);
    expect(errors.find((e) => e.code === 'trap')?.reason).toMatch(/^trap: urlPatterns \(.*\?visit=/);
  });

  it('each rule can be turned off: the same calendar crawled with urlPatterns off goes on to its cap', async () => {
    const { crawl, rests, errors } = await crawlTrap('calendar', {
      traps: { urlPatterns: false },
      maxPages: 60,
    });
    expect(crawl.config.traps).toMatchObject({ urlPatterns: false, repeatedSegments: true });
    expect(rests.filter((rest) => spentInTrap('calendar', rest)).length).toBeGreaterThan(40);
    expect(errors.filter((e) => e.code === 'trap')).toEqual([]);
  });

  it("Firecrawl's crawl lists the URLs kept out of a trap and the soft 404s among its errors; total counts no trapped URL", async () => {
    const firecrawl = async (path: string, body?: unknown) => {
      const init = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) };
      const headers = { authorization: 'Bearer test-token', 'content-type': 'application/json' };
      const res = await exports.default.fetch(new Request(`http://edgecrawl.test${path}`, { ...init, headers }));
      return (await res.json()) as Record<string, unknown>;
    };
    for (const kind of ['calendar', 'soft404'] as const) {
      const url = `${site()}/t/${namespace()}/trap-${kind}/`;
      const { id } = (await firecrawl('/v2/crawl', { url, scrapeOptions: { formats: ['markdown'] } })) as {
        id: string;
      };
      const crawl = await waitForCrawl(id);
      const { errors } = (await firecrawl(`/v2/crawl/${id}/errors`)) as { errors: { code: string; error: string }[] };
      const code = kind === 'soft404' ? 'soft_404' : 'trap';
      const listed = errors.filter((e) => e.code === code);
      expect(listed.length, kind).toBeGreaterThan(0);
      expect(listed[0]?.error).toMatch(kind === 'soft404' ? /^soft 404: / : /^trap: urlPatterns \(/);
      const status = await firecrawl(`/v2/crawl/${id}`);
      const trapped = errors.filter((e) => e.code === 'trap').length;
      expect(status.total, kind).toBe(crawl.counts.stored + crawl.counts.duplicates + errors.length - trapped);
    }
  });
});

describe('soft 404s through the read paths', () => {
  it('a page that became its host\'s "not found" page is gone in a recrawl, and no read path shows it as content', async () => {
    const base = `${site()}/t/${namespace()}/trap-retire/`;
    const old = `${base}old-page.html`;
    const first = await createCrawl({ seeds: [base] });
    await waitForCrawl(first);
    expect((await allPages(first)).some((p) => p.url === old)).toBe(true);
    expect((await fetch(`${base}__retire`)).status).toBe(204);
    const second = await createCrawl({ seeds: [base], previousCrawlId: first });
    const crawl = await waitForCrawl(second);
    // Failed as a soft 404, its status kept; stored as nothing.
    const errors = errorListSchema.parse(await (await api(`/v1/crawls/${second}/errors`)).json()).errors;
    expect(errors.find((e) => e.url === old)).toMatchObject({ outcome: 'failed', code: 'soft_404', httpStatus: 200 });
    expect((await allPages(second)).some((p) => p.url === old)).toBe(false);
    expect((await api(`/v1/crawls/${second}/record?url=${encodeURIComponent(old)}`)).status).toBe(404);
    const exported = await (await api(`/v1/crawls/${second}/export?format=jsonl`)).text();
    expect(exported).not.toContain(old);
    expect(await (await api(`/v1/crawls/${second}/llms.txt`)).text()).not.toContain('old-page.html');
    // The recrawl says the site no longer has it; the counts agree with what is listed.
    const changes = changeListSchema.parse(await (await api(`/v1/crawls/${second}/changes?kind=gone`)).json());
    expect(changes.changes.map((c) => c.url)).toEqual([old]);
    const { discovered, stored, duplicates, failed, skipped } = crawl.counts;
    expect(stored + duplicates + failed + skipped).toBe(discovered);
    expect(failed).toBe(1);
  });
});

describe('a page budget per host (maxPagesPerHost)', () => {
  it('takes at most so many URLs of each host, counts the links refused, and says the crawl did not reach them', async () => {
    const [one, other] = [
      `${site()}/t/${namespace()}/pure-20/`,
      `http://localhost:${inject('portA')}/t/${namespace()}/pure-20/`,
    ];
    const id = await createCrawl({ seeds: [one, other], maxPagesPerHost: 5, duplicates: 'keep' });
    const crawl = await waitForCrawl(id);
    const pages = await allPages(id);
    for (const host of ['127.0.0.1', 'localhost'])
      expect(
        pages.filter((p) => new URL(p.url).hostname === host),
        host,
      ).toHaveLength(5);
    expect(crawl.counts).toMatchObject({ discovered: 10, stored: 10 });
    const stats = (await (await api(`/v1/crawls/${id}/stats`)).json()) as { traps: { overHostBudget: number } };
    expect(stats.traps.overHostBudget).toBeGreaterThan(0);
    expect((await env.CRAWL.getByName(id).summary())?.reach?.cuts).toContain('maxPagesPerHost');
  });
});
