/**
 * The Worker `npm run bench:coordinator` drives: each POST /step does what a frontier consumer does with one
 * crawl's queue batch against the crawl's Durable Object: one claim of the batch's URLs, then one complete per
 * chunk of 50 results, each page reporting LINKS links (page i links to pages i*LINKS/2+1 .. i*LINKS/2+LINKS, so
 * about half of them were offered before, as on a real site). Answers the URLs accepted, for the driver to send next.
 */
import { crawlConfigSchema } from '../../src/domain/crawl/settings';
import { CrawlCoordinator } from '../../src/objects/crawl-coordinator';
import type { CrawlConfig, FrontierEntry, Outcome } from '../../src/types';

export { CrawlCoordinator };

const CHUNK = 50;
const urlOf = (i: number) => `https://bench.example/section-${i % 50}/page-${i}.html`;
const indexOf = (url: string) => Number(/page-(\d+)\.html$/.exec(url)?.[1] ?? -1);

function config(maxPages: number): CrawlConfig {
  return crawlConfigSchema.parse({ seeds: [urlOf(0)], maxPages });
}

function outcome(url: string, depth: number, links: number): Outcome {
  const i = indexOf(url);
  const first = (i * links) / 2 + 1;
  const found: FrontierEntry[] = Array.from({ length: links }, (_, k) => ({
    url: urlOf(first + k),
    depth: depth + 1,
    hops: 0,
  }));
  return { url, kind: 'stored', fetched: true, links: found };
}

async function step(
  env: Env,
  crawlId: string,
  urls: string[],
  links: number,
): Promise<{ accepted: string[]; completed: number }> {
  const stub = env.CRAWL.getByName(crawlId);
  const { claims } = await stub.claim(urls);
  const claimed = urls.flatMap((url, i) => {
    const claim = claims[i];
    return claim ? [outcome(url, claim.depth, links)] : [];
  });
  const accepted: string[] = [];
  for (let i = 0; i < claimed.length; i += CHUNK) {
    const result = await stub.complete(claimed.slice(i, i + CHUNK));
    accepted.push(...result.accepted.map((e) => e.url));
  }
  return { accepted, completed: claimed.length };
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const crawlId = url.searchParams.get('crawl') ?? '';
    const stub = env.CRAWL.getByName(crawlId);
    if (url.pathname === '/start') {
      const seeds = await stub.start(crawlId, config(Number(url.searchParams.get('pages') ?? 10_000)));
      return Response.json({ accepted: seeds.map((e) => e.url) });
    }
    if (url.pathname === '/step') {
      const urls: unknown = await request.json();
      if (!Array.isArray(urls) || !urls.every((u) => typeof u === 'string'))
        return new Response('a JSON array of URLs', { status: 400 });
      return Response.json(await step(env, crawlId, urls, Number(url.searchParams.get('links') ?? 20)));
    }
    if (url.pathname === '/usage') return Response.json({ snapshot: await stub.snapshot(), usage: await stub.usage() });
    return new Response('not found', { status: 404 });
  },
} satisfies ExportedHandler<Env>;
