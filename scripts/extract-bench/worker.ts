/** A Worker for `npm run bench:extract`: extracts the posted page `n` times with the variant named in the query. */
import { extractPage } from '../../src/domain/extract';
import type { ExtractSpec } from '../../src/domain/extract/spec';

const SPECS: Record<string, ExtractSpec> = {
  // What edgecrawl does by default: main content detected, clutter removed.
  edgecrawl: { formats: ['text', 'markdown', 'metadata'], mainContent: true, include: [], exclude: [], fields: {} },
  // The whole body, for comparison: what extraction without main-content detection gives.
  body: { formats: ['text', 'markdown', 'metadata'], mainContent: false, include: [], exclude: [], fields: {} },
};

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const n = Number(url.searchParams.get('n') ?? 1);
    const spec = SPECS[url.searchParams.get('variant') ?? 'edgecrawl'];
    if (!spec) return new Response('unknown variant', { status: 400 });
    const pageUrl = url.searchParams.get('url') ?? 'http://fakehost/test/page.html';
    const body = new Uint8Array(await request.arrayBuffer());
    let result: Awaited<ReturnType<typeof extractPage>> | null = null;
    for (let i = 0; i < n; i++) result = await extractPage(body, 'text/html; charset=utf-8', pageUrl, spec);
    return Response.json({
      text: result?.outputs.text ?? '',
      markdown: result?.outputs.markdown ?? '',
      metadata: result?.record.metadata ?? null,
      source: result?.source,
    });
  },
};
