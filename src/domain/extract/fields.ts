import { absoluteUrl, collapse, type DomElement, selectAll } from './dom';
import { parseNumber } from './number';
import { type FieldSpec, PAGE_LIMITS } from './spec';

export type FieldValue = string | number | null | FieldValue[] | { [name: string]: FieldValue };

interface FieldContext {
  baseUrl: string;
  /** Problems by field path ("specs[2].value"); a field that fails is null, never the page. */
  errors: Record<string, string>;
}

/** The value of one matched element as the spec wants it. */
function matchValue(element: DomElement, spec: FieldSpec, path: string, context: FieldContext): FieldValue {
  if (spec.fields) return readFields(element, spec.fields, context, `${path}.`);
  const type = spec.type ?? 'text';
  const raw =
    spec.attr !== undefined
      ? element.getAttribute(spec.attr)
      : type === 'html'
        ? element.innerHTML
        : element.textContent;
  if (raw === null) {
    context.errors[path] = `no attribute ${spec.attr}`;
    return null;
  }
  if (type === 'html') return raw.trim();
  const text = collapse(raw);
  if (type === 'number') {
    const number = parseNumber(text);
    if (number === null && text !== '') context.errors[path] = `not a number: ${JSON.stringify(text.slice(0, 80))}`;
    return number;
  }
  if (type === 'url') {
    const url = absoluteUrl(text, context.baseUrl);
    if (url === null && text !== '') context.errors[path] = `not an http(s) URL: ${JSON.stringify(text.slice(0, 200))}`;
    return url;
  }
  return text;
}

function readField(scope: DomElement, spec: FieldSpec, path: string, context: FieldContext): FieldValue {
  let matches: DomElement[];
  try {
    matches = Array.from(scope.querySelectorAll(spec.selector));
  } catch (error) {
    context.errors[path] = `selector failed: ${error instanceof Error ? error.message : String(error)}`;
    return spec.list ? [] : null;
  }
  if (!spec.list) {
    const match = matches[0];
    return match ? matchValue(match, spec, path, context) : null;
  }
  if (matches.length > PAGE_LIMITS.listItems)
    context.errors[path] = `only the first ${PAGE_LIMITS.listItems} of ${matches.length} matches kept`;
  return matches.slice(0, PAGE_LIMITS.listItems).map((match, i) => matchValue(match, spec, `${path}[${i}]`, context));
}

/** Declared fields read within `scope`: the first match, or every match with `list`; nested fields read each match. */
export function readFields(
  scope: DomElement,
  specs: Record<string, FieldSpec>,
  context: FieldContext,
  prefix = '',
): { [name: string]: FieldValue } {
  const out: { [name: string]: FieldValue } = {};
  for (const [name, spec] of Object.entries(specs)) {
    try {
      out[name] = readField(scope, spec, `${prefix}${name}`, context);
    } catch (error) {
      context.errors[`${prefix}${name}`] = error instanceof Error ? error.message : String(error);
      out[name] = spec.list ? [] : null;
    }
  }
  return out;
}

/** Every image of the content: absolute URLs (no data: images), with their alt text. */
export function readImages(root: DomElement, baseUrl: string): { src: string; alt: string }[] {
  const seen = new Set<string>();
  const out: { src: string; alt: string }[] = [];
  for (const img of selectAll(root, 'img')) {
    const src = absoluteUrl(imageSource(img), baseUrl);
    if (!src || seen.has(src) || out.length >= PAGE_LIMITS.links) continue;
    seen.add(src);
    out.push({ src, alt: collapse(img.getAttribute('alt')) });
  }
  return out;
}

/** An image's address: src, or the lazy-loading attributes pages use instead, or the first srcset candidate. */
export function imageSource(img: DomElement): string | null {
  for (const name of ['src', 'data-src', 'data-lazy-src', 'data-original']) {
    const value = img.getAttribute(name)?.trim();
    if (value && !value.startsWith('data:')) return value;
  }
  const srcset = img.getAttribute('srcset') ?? img.getAttribute('data-srcset');
  return srcset?.trim().split(/\s+/)[0] ?? null;
}
