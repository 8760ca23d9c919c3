/** A Worker for `npm run bench:parse`: parses the posted page `n` times with the parser named in the query. */
import { discoverLinks } from '../../src/domain/html/discover';
import { decodeBody, parseHtmlPage } from '../../src/domain/html/page';

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const n = Number(url.searchParams.get('n') ?? 1);
    const parser = url.searchParams.get('parser');
    const body = new Uint8Array(await request.arrayBuffer());
    const type = 'text/html; charset=utf-8';
    let links = 0;
    if (parser === 'rewriter-min') {
      for (let i = 0; i < n; i++) {
        const hrefs: (string | null)[] = [];
        await new HTMLRewriter()
          .on('a[href]', { element: (el) => void hrefs.push(el.getAttribute('href')) })
          .transform(new Response(body))
          .arrayBuffer();
        links += hrefs.length;
      }
      return Response.json({ links });
    }
    if (parser === 'rewriter-none') {
      for (let i = 0; i < n; i++)
        await new HTMLRewriter()
          .on('nomatch', { element: () => undefined })
          .transform(new Response(body))
          .arrayBuffer();
      return Response.json({ links: n });
    }
    for (let i = 0; i < n; i++) {
      const page =
        parser === 'linkedom'
          ? parseHtmlPage(decodeBody(body, type), 'http://bench.test/p.html')
          : await discoverLinks(body, type, 'http://bench.test/p.html');
      links += page.links.length;
    }
    return Response.json({ links });
  },
};
