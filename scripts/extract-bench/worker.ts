/**
 * A Worker for `npm run bench:extract`: extracts the posted page `n` times with the variant named in the query, as a
 * crawl does (page/read.ts: extractPage, then extractFacts, which gives the page row's facts and encodes the record
 * stored beside the body). `url` is the page's address, `type` its Content-Type (default: HTML in UTF-8; `text/html`
 * alone leaves the charset to the page's BOM, meta tags or detection, as for a server that names none).
 */
import { extractPage } from '../../src/domain/extract';
import type { ExtractSpec } from '../../src/domain/extract/spec-schema';
import { extractFacts } from '../../src/page/read';

const SPECS: Record<string, ExtractSpec> = {
  // What edgecrawl does by default: main content detected, clutter removed.
  edgecrawl: { formats: ['text', 'markdown', 'metadata'], mainContent: true, include: [], exclude: [], fields: {} },
  // The whole body, for comparison: what extraction without main-content detection gives.
  body: { formats: ['text', 'markdown', 'metadata'], mainContent: false, include: [], exclude: [], fields: {} },
  // The documentation bench (CORPUS=docs): Markdown and text, main content detected.
  docs: { formats: ['markdown', 'text'], mainContent: true, include: [], exclude: [], fields: {} },
};

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const n = Number(url.searchParams.get('n') ?? 1);
    const spec = SPECS[url.searchParams.get('variant') ?? 'edgecrawl'];
    if (!spec) return new Response('unknown variant', { status: 400 });
    const pageUrl = url.searchParams.get('url') ?? 'http://fakehost/test/page.html';
    const contentType = url.searchParams.get('type') ?? 'text/html; charset=utf-8';
    const body = new Uint8Array(await request.arrayBuffer());
    let result: Awaited<ReturnType<typeof extractPage>> | null = null;
    let recordBytes = 0;
    for (let i = 0; i < n; i++) {
      result = await extractPage(body, contentType, pageUrl, spec);
      recordBytes = extractFacts(result).record.byteLength;
    }
    return Response.json({
      text: result?.outputs.text ?? '',
      markdown: result?.outputs.markdown ?? '',
      metadata: result?.record.metadata ?? null,
      source: result?.source,
      recordBytes,
    });
  },
};
