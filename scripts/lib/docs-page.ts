/**
 * The truth of one documentation page, read with linkedom from its generator's own main-block marker: the main
 * block's text (permalink signs and buttons dropped), its code blocks with their declared languages, its data tables,
 * its title heading, its links' texts, and a few navigation texts from outside the main block that an extraction must
 * not carry.
 */
import { parseHTML } from 'linkedom';
import type { DocsSet } from './docs-sets.ts';
import { blockText, type DomElement, inlineText } from './dom-text.ts';

export interface DocsCode {
  text: string;
  language: string | null;
}

export interface DocsTable {
  rows: number;
  cols: number;
}

export interface DocsPage {
  set: string;
  file: string;
  url: string;
  text: string;
  codes: DocsCode[];
  tables: DocsTable[];
  h1: string | null;
  /**
   * The texts of the main block's links, each once: a table of linked names or a list of links inside the content
   * is content, and an extraction that empties it loses these (a text that is also said elsewhere still counts).
   */
  links: string[];
  navTexts: string[];
}

interface DomDocument {
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): Iterable<DomElement>;
}

/** Languages a class may name that say nothing (Sphinx's default lexer, plain text). */
const NO_LANGUAGE = new Set(['default', 'none', 'text', 'plain', 'plaintext', 'nohighlight', 'txt']);

function classLanguage(el: DomElement): string | null {
  for (const token of (el.getAttribute('class') ?? '').split(/\s+/)) {
    const m = /^(?:language|lang|highlight)-([\w+#.-]+)$/.exec(token);
    if (m?.[1]) return NO_LANGUAGE.has(m[1].toLowerCase()) ? null : m[1];
    if (token === 'rust' && el.tagName === 'PRE') return 'rust'; // rustdoc: <pre class="rust rust-example-rendered">
  }
  return null;
}

/** The language a code block declares: on itself, its inner code, or a wrapper up to the main block. */
function codeLanguage(el: DomElement, main: DomElement): string | null {
  const own = [el, ...el.querySelectorAll('code, pre')].map(classLanguage).find((l) => l !== null);
  if (own) return own;
  for (let up = el.parentElement; up && up !== main; up = up.parentElement) {
    const language = classLanguage(up);
    if (language) return language;
  }
  return null;
}

function codeText(el: DomElement): string {
  const lines = [...el.querySelectorAll('div.line')];
  const text =
    el.tagName === 'PRE' || lines.length === 0
      ? (el.textContent ?? '')
      : lines.map((l) => l.textContent ?? '').join('\n');
  return text.replace(/^\n+|\s+$/g, '');
}

function codesOf(main: DomElement, selector: string): DocsCode[] {
  return [...main.querySelectorAll(selector)]
    .filter((el) => !el.parentElement?.closest('pre, div.fragment'))
    .map((el) => ({ text: codeText(el), language: codeLanguage(el, main) }))
    .filter((code) => code.text.trim() !== '');
}

/** Tables that lay out rather than hold data: line-number gutters, code inside, DocBook's simple lists, nesting. */
function isLayout(table: DomElement): boolean {
  const cls = table.getAttribute('class') ?? '';
  return (
    /\b(highlighttable|simplelist|calloutlist|memberdecls|memname|params|fieldtable)\b/.test(cls) ||
    table.getAttribute('role') === 'presentation' ||
    table.querySelector('pre, div.fragment, table') !== null ||
    table.parentElement?.closest('table') != null
  );
}

function tableShape(table: DomElement): DocsTable {
  const rows = [...table.querySelectorAll('tr')].filter((tr) => tr.closest('table') === table);
  let cols = 0;
  for (const tr of rows) {
    let n = 0;
    for (const cell of tr.querySelectorAll('td, th'))
      if (cell.closest('tr') === tr) n += Math.max(1, Number(cell.getAttribute('colspan') ?? 1) || 1);
    cols = Math.max(cols, n);
  }
  return { rows: rows.length, cols };
}

const tablesOf = (main: DomElement): DocsTable[] =>
  [...main.querySelectorAll('table')]
    .filter((t) => !isLayout(t))
    .map(tableShape)
    .filter((t) => t.rows > 0 && t.cols > 0);

/** A link text worth looking for: two letters or digits together, at most 80 characters. */
const linkWorthy = (text: string) => text.length <= 80 && /[\p{L}\p{N}]{2}/u.test(text);

function linksOf(main: DomElement): string[] {
  const texts = new Set<string>();
  for (const a of main.querySelectorAll('a[href]')) {
    const text = inlineText(a.textContent);
    if (linkWorthy(text)) texts.add(text);
  }
  return [...texts];
}

const NAV_AROUND =
  '[class*=prev], [class*=next], [rel], nav, [role=navigation], [class*=sidebar], [class*=toc], [class*=nav], [class*=related], [class*=breadcrumb]';

/** A text worth watching for: two words or more, 10 to 80 characters, and not a text of the main block too. */
const distinctive = (text: string, lowerMain: string) =>
  text.length >= 10 &&
  text.length <= 80 &&
  /\p{L}{3}/u.test(text) &&
  /\s/.test(text) &&
  !lowerMain.includes(text.toLowerCase());

/** Texts outside the main block, distinctive enough to spot if they leak: prev/next and sidebar links first. */
function navTextsOf(document: DomDocument, main: DomElement, mainText: string, nav?: string): string[] {
  const seen = new Set<string>();
  const hinted: string[] = [];
  const others: string[] = [];
  const lowerMain = inlineText(mainText).toLowerCase();
  const navEls = nav ? [...document.querySelectorAll(nav)] : [];
  for (const el of [...navEls, ...document.querySelectorAll('body a[href]')]) {
    const text = inlineText(el.textContent);
    if (main.contains(el) || seen.has(text.toLowerCase()) || !distinctive(text, lowerMain)) continue;
    seen.add(text.toLowerCase());
    (navEls.includes(el) || el.closest(NAV_AROUND) !== null ? hinted : others).push(text);
  }
  const pool = hinted.length > 0 ? hinted : others;
  const step = Math.max(1, Math.floor(pool.length / 6));
  return pool.filter((_, i) => i % step === 0).slice(0, 6);
}

/** The page's truth, or null when the page is not content (a redirect, no main block, next to no text). */
export function pageTruth(set: DocsSet, file: string, url: string, html: string): DocsPage | null {
  if (/<meta[^>]+http-equiv=["']?refresh/i.test(html.slice(0, 4000))) return null;
  const document: DomDocument = parseHTML(html).document;
  const main = document.querySelector(set.main);
  if (!main) return null;
  for (const el of main.querySelectorAll(`script, style, noscript, template${set.drop ? `, ${set.drop}` : ''}`))
    el.remove();
  const text = blockText(main);
  if ((text.match(/[\p{L}\p{N}]+/gu) ?? []).length < 20) return null;
  const titleSelector = set.title ?? 'h1';
  const title = main.querySelector(titleSelector) ?? document.querySelector(titleSelector);
  return {
    set: set.name,
    file,
    url,
    text,
    codes: codesOf(main, set.code ?? 'pre'),
    tables: tablesOf(main),
    h1: title ? inlineText(title.textContent) || null : null,
    links: linksOf(main),
    navTexts: navTextsOf(document, main, text, set.nav),
  };
}
