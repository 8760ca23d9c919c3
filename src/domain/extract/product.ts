import { type DomDocument, selectAll } from './dom';
import type { JsonValue } from './json-ld';

/** schema.org's types of a product, by their last segment ("Product", "schema:Product", "https://schema.org/Product"). */
const PRODUCT_TYPES = new Set(['product', 'productgroup', 'productmodel', 'individualproduct']);

const isProductType = (types: string) =>
  types.split(/\s+/).some((type) => PRODUCT_TYPES.has(type.split(/[/:#]/).pop()?.toLowerCase() ?? ''));

const declaresType = (item: JsonValue) => {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return false;
  const type = item['@type'];
  return (Array.isArray(type) ? type : [type]).some((t) => typeof t === 'string' && isProductType(t));
};

/**
 * Whether the page says it is a product: Open Graph's `og:type` (product, product.item), a schema.org Product in its
 * JSON-LD (graphs flattened) or in its microdata (`itemtype`). On such a page the tags and categories inside the
 * content are facts of the product, where an article's are metadata about it.
 */
export function declaresProduct(
  document: DomDocument,
  jsonLd: readonly JsonValue[],
  ogType?: string,
  itemtypes: readonly string[] = itemtypesOf(document),
): boolean {
  if (ogType && /^(og:)?product(\.|$)/i.test(ogType.trim())) return true;
  if (jsonLd.some(declaresType)) return true;
  return itemtypes.some(isProductType);
}

/** The microdata types the page's elements declare (`itemtype`), in one walk for all that read them. */
export const itemtypesOf = (document: DomDocument): string[] =>
  selectAll(document, '[itemtype]').map((element) => element.getAttribute('itemtype') ?? '');
