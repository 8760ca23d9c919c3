/**
 * The fake model's reading of a page (test/support/fake-llm.ts): it finds in the prompt's Markdown what a schema asks
 * for, as the test sites stand in for the web. Deterministic and plain: a `Name: value` line, a `**Name:** value`
 * line, a table row `| Name | value |`, the list under a heading named like the property, the first `# heading` for a
 * name or title, a currency amount for a price.
 */

export interface FakePage {
  url: string;
  title: string | null;
  markdown: string;
}

type Schema = { [key: string]: unknown };

/** The page in the first user message of a prompt built by src/domain/model/prompt.ts, or null. */
export function pageOfPrompt(content: string): FakePage | null {
  const url = /^Page URL: (.*)$/m.exec(content)?.[1];
  const title = /^Page title: (.*)$/m.exec(content)?.[1];
  const start = content.indexOf('\n<<<\n');
  const end = content.lastIndexOf('\n>>>');
  if (url === undefined || start === -1 || end < start) return null;
  const markdown = content.slice(start + 5, end);
  return { url, title: title === undefined || title === '(none)' ? null : title, markdown };
}

/** An object for `schema`'s properties, each found in the page and typed by its schema, null when not there. */
export function fillSchema(schema: Schema, page: FakePage, depth = 0): Record<string, unknown> {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    out[name] = isSchema(property) ? valueFor(name, property, page, depth) : null;
  }
  return out;
}

function valueFor(name: string, schema: Schema, page: FakePage, depth: number): unknown {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object') return depth < 4 ? fillSchema(schema, page, depth + 1) : null;
  if (type === 'array') return listUnder(name, page.markdown);
  const text = labelled(name, page.markdown) ?? fallback(name, page);
  if (text === null) return null;
  return typed(text, type);
}

function typed(text: string, type: unknown): unknown {
  if (type === 'number' || type === 'integer') {
    const match = /-?\d[\d,]*(?:\.\d+)?/.exec(text);
    if (!match) return null;
    const value = Number(match[0].replaceAll(',', ''));
    return type === 'integer' ? Math.trunc(value) : value;
  }
  if (type === 'boolean') {
    if (/^(yes|true|in stock|available)\b/i.test(text)) return true;
    if (/^(no|false|out of stock|unavailable|sold out)\b/i.test(text)) return false;
    return null;
  }
  return text;
}

/** The property's words, lower case and run together: `unitPrice`, `unit_price` and `Unit price` all give `unitprice`. */
function squash(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

/** The value of a `Name: value`, `**Name:** value` or `| Name | value |` line whose name is the property's. */
function labelled(name: string, markdown: string): string | null {
  const wanted = squash(name);
  for (const line of markdown.split('\n')) {
    const pair = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?([^:|*_]{1,60}?)(?::\*\*|\*\*:|:__|__:|:)\s*(.+?)\s*$/.exec(line);
    if (pair?.[1] && pair[2] && squash(pair[1]) === wanted) return clean(pair[2]);
    const cells = line.trim().startsWith('|') ? line.split('|').map((cell) => cell.trim()) : [];
    if (cells.length >= 4 && cells[1] && cells[2] && squash(cells[1]) === wanted) return clean(cells[2]);
  }
  return null;
}

function clean(text: string): string | null {
  const value = text.replace(/^\*\*|\*\*$/g, '').trim();
  return value === '' ? null : value;
}

/** What a name or title, or a price, falls back to: the first `# heading`, a currency amount. */
function fallback(name: string, page: FakePage): string | null {
  const words = squash(name);
  if (words === 'name' || words === 'title' || words.endsWith('name') || words.endsWith('title')) {
    return /^#\s+(.+)$/m.exec(page.markdown)?.[1]?.trim() ?? page.title;
  }
  if (words.includes('price')) {
    return /(?:[$€£]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?(?:USD|EUR|GBP))/.exec(page.markdown)?.[0] ?? null;
  }
  return null;
}

/** The list items under the first heading named like the property, as strings; null when there is no such list. */
function listUnder(name: string, markdown: string): string[] | null {
  const lines = markdown.split('\n');
  const at = lines.findIndex((line) => /^#{1,6}\s/.test(line) && squash(line.replace(/^#+/, '')) === squash(name));
  if (at === -1) return null;
  const items: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (/^#{1,6}\s/.test(line)) break;
    const item = /^\s*(?:[-*+]|\d+\.)\s+(.+)$/.exec(line)?.[1];
    if (item) items.push(item.trim());
    else if (items.length > 0 && line.trim() !== '') break;
  }
  return items;
}

/** The page's headings, in order, without their marks. */
export function headingsOf(markdown: string): string[] {
  return [...markdown.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => (match[1] ?? '').trim());
}

/** The first two sentences of the page's prose (headings, lists, tables and `Name: value` lines left out). */
export function summarize(page: FakePage): string {
  const prose = page.markdown
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^\s*(#|[-*+]\s|\d+\.\s|\||\[… cut)/.test(line))
    .filter((line) => !/^\s*(?:\*\*)?[^:.!?]{1,40}:(?:\*\*)?\s/.test(line))
    .join(' ');
  const sentences = prose.split(/(?<=[.!?])\s+/).filter((s) => s !== '');
  return sentences.slice(0, 2).join(' ') || (page.title ?? '');
}

export function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
