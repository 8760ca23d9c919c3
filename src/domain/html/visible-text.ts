import { decodeHTML } from 'entities/decode';

/**
 * The text a page shows outside its chrome, read without a DOM: for a crawl that does not extract (its pages are only
 * streamed for links), what its similarity sketches are made of. Scripts, styles, templates, SVG and the page's
 * navigation, header, footer, asides and forms are left out, tags dropped, character references decoded, blank runs
 * collapsed; block elements end a line. At most `limit` characters of HTML are read.
 */
const DROPPED =
  /<(script|style|noscript|template|svg|nav|header|footer|aside|form|select|button)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const BLOCK_END = /<\/?(p|div|li|tr|h[1-6]|section|article|main|br|dd|dt|blockquote|pre|table|ul|ol)\b[^>]*>/gi;
const TAG = /<[^>]*>/g;
const COMMENT = /<!--[\s\S]*?-->/g;

export function visibleText(html: string, limit = 512 * 1024): string {
  const body = html.length > limit ? html.slice(0, limit) : html;
  const start = body.search(/<body\b/i);
  const text = (start === -1 ? body : body.slice(start))
    .replace(COMMENT, ' ')
    .replace(DROPPED, ' ')
    .replace(BLOCK_END, '\n')
    .replace(TAG, ' ');
  return decodeHTML(text)
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}
