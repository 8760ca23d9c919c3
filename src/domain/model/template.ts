/**
 * The page template a URL belongs to, for selectors written once per template (issue 33). The rule: the host (with its
 * port), then the path's segments with every all-digit segment written `:n` and the last segment, whatever it is,
 * written `*`; the scheme, the query and the fragment are dropped, and a trailing slash does not count. So
 * https://shop.test/p/123.html and /p/77.html share `shop.test/p/*`, /category/shoes and /category/hats share
 * `shop.test/category/*`, /2024/05/a-post is `shop.test/:n/:n/*`, and / is `shop.test/` alone.
 */
export function templateOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const segments = parsed.pathname.split('/').filter((segment) => segment !== '');
  if (segments.length === 0) return `${parsed.host}/`;
  const shape = segments.map((segment, i) =>
    i === segments.length - 1 ? '*' : /^\d+$/.test(segment) ? ':n' : segment,
  );
  return `${parsed.host}/${shape.join('/')}`;
}
