import { it } from 'vitest';
import { allPages, api, createCrawl, namespace, site, siteLog, waitForCrawl } from '../support/api';

it('dbg', async () => {
  const ns = namespace();
  const id = await createCrawl({ seeds: [`${site()}/t/${ns}/trap-visit/`], hostIntervalMs: 500 });
  const crawl = await waitForCrawl(id, 85_000);
  const pages = await allPages(id);
  const errors = (await (await api(`/v1/crawls/${id}/errors?limit=1000`)).json()) as {
    errors: { url: string; reason: string }[];
  };
  console.log('DBG', JSON.stringify(crawl.counts));
  console.log('DBG pages', pages.map((p) => `${p.url.split('/').pop()} ${p.duplicateOf ? 'dup' : ''}`).join(' | '));
  console.log('DBG errors', errors.errors.map((e) => `${e.url.split('/').pop()}`).join(' | '));
  console.log('DBG log', (await siteLog(ns)).map((e) => e.split('/').pop()).join(' | '));
}, 90_000);
