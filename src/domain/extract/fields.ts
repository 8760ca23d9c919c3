import { absoluteUrl, collapse, type DomElement, imageSource, isElement, selectAll } from './dom';
import { codeText, toMarkdown } from './markdown';
import { parseNumber } from './number';
import { PAGE_LIMITS } from './spec';
import type { FieldSpec } from './spec-schema';

export type FieldValue = string | number | null | FieldValue[] | { [name: string]: FieldValue };

interface FieldContext {
  baseUrl: string;
  /** Problems by field path ("specs[2].value"); a field that fails is null, never the page. */
  errors: Record<string, string>;
  /** Work so far: characters read (text and HTML of matches) and elements visited; nested matches read theirs again. */
  work?: number;
  /** Elements copied so far to read code blocks' lines. */
  copied?: number;
}

/** The value of one matched element as the spec wants it. */
function matchValue(element: DomElement, spec: FieldSpec, path: string, context: FieldContext): FieldValue {
  if (spec.fields) return readFields(element, spec.fields, context, `${path}.`);
  const type = spec.type ?? 'text';
  if ((context.work ?? 0) > PAGE_LIMITS.fieldWork) {
    context.errors[path] = `not read: fields past ${PAGE_LIMITS.fieldWork} characters and elements read`;
    return null;
  }
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
  context.work = (context.work ?? 0) + raw.length;
  if (type === 'html') return raw.trim();
  if (spec.attr === undefined && (type === 'code' || type === 'text'))
    return elementText(element, type, { raw, path }, context);
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

/**
 * An element's text: code verbatim; other text collapsed, except the line breaks of the code blocks inside it. Those
 * are read from a copy; past PAGE_LIMITS.fieldElements elements copied (nested matches copy the same ones again),
 * the text is taken as it is.
 */
function elementText(
  element: DomElement,
  type: 'code' | 'text',
  { raw, path }: { raw: string; path: string },
  context: FieldContext,
): string {
  const code = type === 'code' || inCode(element);
  const inner = selectAll(element, '*');
  context.work = (context.work ?? 0) + inner.length;
  if (!code && !inner.some((e) => e.localName === 'pre')) return collapse(raw);
  context.copied = (context.copied ?? 0) + inner.length;
  if (context.copied > PAGE_LIMITS.fieldElements) {
    context.errors[path] = `read as plain text: fields copied past ${PAGE_LIMITS.fieldElements} elements`;
    return code ? raw : collapse(raw);
  }
  const copy = element.cloneNode(true);
  return code ? codeText(copy) : toMarkdown(copy, context.baseUrl, 'text');
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
