import { collapse, type DomDocument, selectAll } from './dom';
import type { LinkedFacts } from './metadata';
import { PAGE_LIMITS } from './spec';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A value cut at `depth` levels of nesting (deeper arrays and objects become null), so no block is unbounded. */
function cut(value: unknown, depth: number): JsonValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string')
    return value;
  if (depth <= 0) return null;
  if (Array.isArray(value)) return value.map((v) => cut(v, depth - 1));
  if (typeof value === 'object') {
    const out: { [key: string]: JsonValue } = {};
    for (const [key, v] of Object.entries(value)) out[key] = cut(v, depth - 1);
    return out;
  }
  return null;
}

/**
 * How deep a block's arrays and objects nest (strings skipped), counted up to `limit`: JSON.parse itself costs
 * time in proportion to nesting (half a million levels: about 0.3 s), so a block nested past the limit is not parsed.
 */
function nestsPast(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 91 || c === 123) {
      if (++depth > limit) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/** Parses a block, forgiving what pages commonly get wrong: HTML comment or CDATA wrappers, raw line breaks in strings, a trailing semicolon. */
function parseBlock(text: string): unknown {
  const trimmed = text
    .trim()
    .replace(/^<!--|-->$/g, '')
    .replace(/^\s*\/\/\s*<!\[CDATA\[|\/\/\s*\]\]>\s*$/g, '')
    .trim()
    .replace(/;$/, '');
  try {
    return JSON.parse(trimmed);
  } catch {
    // Raw control characters inside strings are the most common breakage.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is being removed
    return JSON.parse(trimmed.replace(/[\u0000-\u001f]+/g, ' '));
  }
}

/** Items of a parsed block: an array's elements, and the items of every @graph, flattened. */
function items(value: JsonValue): JsonValue[] {
  if (Array.isArray(value)) return value.flatMap(items);
  if (value && typeof value === 'object' && Array.isArray(value['@graph'])) {
    const { '@graph': graph, ...rest } = value;
    const context = rest['@context'];
    const members = (graph as JsonValue[])
      .flatMap(items)
      .map((item) =>
        item &&
        typeof item === 'object' &&
        !Array.isArray(item) &&
        context !== undefined &&
        item['@context'] === undefined
          ? { '@context': context, ...item }
          : item,
      );
    return Object.keys(rest).filter((k) => k !== '@context').length > 0 ? [rest, ...members] : members;
  }
  return [value];
}

/** Every JSON-LD block of the page, parsed, @graph flattened into its items; broken blocks are skipped with a warning. */
export function readJsonLd(document: DomDocument, warnings: string[]): JsonValue[] {
  const scripts = selectAll(document, 'script[type]').filter((s) =>
    /^\s*application\/ld\+json\s*(;|$)/i.test(s.getAttribute('type') ?? ''),
  );
  const out: JsonValue[] = [];
  let bytes = 0;
  for (const [index, script] of scripts.entries()) {
    if (index >= PAGE_LIMITS.jsonLdBlocks) {
      warnings.push(`jsonLd: only the first ${PAGE_LIMITS.jsonLdBlocks} of ${scripts.length} blocks read`);
      break;
    }
    const text = script.textContent ?? '';
    bytes += text.length;
    if (bytes > PAGE_LIMITS.jsonLdBytes) {
      warnings.push(`jsonLd: block ${index + 1} skipped, JSON-LD past ${PAGE_LIMITS.jsonLdBytes} characters`);
      continue;
    }
    if (nestsPast(text, PAGE_LIMITS.jsonLdParseDepth)) {
      warnings.push(`jsonLd: block ${index + 1} skipped, nested deeper than ${PAGE_LIMITS.jsonLdParseDepth} levels`);
      continue;
    }
    try {
      out.push(...items(cut(parseBlock(text), PAGE_LIMITS.jsonLdDepth)));
    } catch (error) {
      warnings.push(
        `jsonLd: block ${index + 1} is not valid JSON (${error instanceof Error ? error.message.slice(0, 120) : 'parse error'})`,
      );
    }
  }
  return out;
}

const ARTICLE_TYPES = /(^|[^a-z])(article|newsarticle|blogposting|report|scholarlyarticle|techarticle|webpage)$/i;

function nameOf(value: JsonValue | undefined): string | null {
  if (typeof value === 'string') return collapse(value) || null;
  if (Array.isArray(value))
    return (
      value
        .map(nameOf)
        .filter((n): n is string => n !== null)
        .join(', ') || null
    );
  if (value && typeof value === 'object' && typeof value.name === 'string') return collapse(value.name) || null;
  return null;
}

/** Author, dates and headline of the page's article item, if its JSON-LD has one. */
export function linkedFacts(items: readonly JsonValue[]): LinkedFacts {
  const article = items.find((item) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return false;
    const type = item['@type'];
    return (Array.isArray(type) ? type : [type]).some((t) => typeof t === 'string' && ARTICLE_TYPES.test(t));
  });
  if (!article || typeof article !== 'object' || Array.isArray(article)) return {};
  const text = (v: JsonValue | undefined) => (typeof v === 'string' ? collapse(v) || null : null);
  return {
    author: nameOf(article.author),
    publishedTime: text(article.datePublished),
    modifiedTime: text(article.dateModified),
    headline: text(article.headline),
  };
}
