import { decodeHTML, decodeHTMLAttribute } from 'entities/decode';
import {
  charsetOf,
  decodeBody,
  isCanonicalRel,
  type ParsedPage,
  parseHtmlPage,
  type RawPage,
  resolvePage,
} from './page';

/** Encodings lol-html (HTMLRewriter) reads: every ASCII-compatible one; UTF-16 is not. */
function rewriterReads(contentType: string | null): boolean {
  return !/^utf-16/.test(charsetOf(contentType) ?? '');
}

const decodeAttribute = (value: string | null): string =>
  value === null ? '' : value.includes('&') ? decodeHTMLAttribute(value) : value;

/**
 * Link discovery on the crawl's hot path: streams the body through Workers' native HTMLRewriter (lol-html)
 * instead of building a DOM. Reads the same things as parseHtmlPage (a/area hrefs, the first base href,
 * rel=canonical, the first title) and resolves them the same way; HTMLRewriter hands over attribute values
 * and text as written, so character references are decoded here. Falls back to the DOM parser for
 * encodings HTMLRewriter cannot read.
 */
export async function discoverLinks(
  body: Uint8Array,
  contentType: string | null,
  pageUrl: string,
): Promise<ParsedPage> {
  if (!rewriterReads(contentType)) return parseHtmlPage(decodeBody(body, contentType), pageUrl);
  const raw: RawPage = { hrefs: [], baseHref: null, canonicals: [], title: null };
  let titles = 0;
  let title = '';
  const rewriter = new HTMLRewriter()
    .on('a[href]', { element: (el) => void raw.hrefs.push(decodeAttribute(el.getAttribute('href'))) })
    .on('area[href]', { element: (el) => void raw.hrefs.push(decodeAttribute(el.getAttribute('href'))) })
    .on('base[href]', {
      element: (el) => {
        raw.baseHref ??= decodeAttribute(el.getAttribute('href'));
      },
    })
    .on('link[rel][href]', {
      element: (el) => {
        if (isCanonicalRel(decodeAttribute(el.getAttribute('rel'))))
          raw.canonicals.push(decodeAttribute(el.getAttribute('href')));
      },
    })
    .on('title', {
      element: () => void titles++,
      text: (chunk) => {
        if (titles === 1) title += chunk.text;
      },
    });
  const headers = contentType ? { 'content-type': contentType } : undefined;
  await rewriter.transform(new Response(body, { headers })).arrayBuffer();
  if (titles > 0) raw.title = decodeHTML(title);
  return resolvePage(raw, pageUrl);
}
