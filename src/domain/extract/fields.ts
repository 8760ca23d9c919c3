import { absoluteUrl, collapse, type DomElement, imageSource, isElement, selectAll } from './dom';
import { codeText, toMarkdown } from './markdown';
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
  if (spec.attr === undefined && (type === 'code' || type === 'text')) return elementText(element, type, context);
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

/** Whether an element is code or inside code: its whitespace is content. */
function inCode(element: DomElement): boolean {
  for (
    let node: DomElement | null = element;
    node;
    node = node.parentNode && isElement(node.parentNode) ? node.parentNode : null
  )
    if (node.localName === 'pre' || node.localName === 'textarea') return true;
  return false;
}

/** An element's text: code verbatim; other text collapsed, except the line breaks of the code blocks inside it. */
function elementText(element: DomElement, type: 'code' | 'text', context: FieldContext): string {
  const copy = element.cloneNode(true);
  if (type === 'code' || inCode(element)) return codeText(copy);
  if (selectAll(copy, 'pre').length === 0) return collapse(copy.textContent);
  return toMarkdown(copy, context.baseUrl, 'text');
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
