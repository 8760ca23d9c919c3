/**
 * Whether a page fetched plainly needs a browser to show its content (`render: "auto"`). Pure and cheap: it runs on
 * every HTML page of a crawl, after extraction, on the decoded HTML with a few string scans (no second parse), and
 * most pages stop at the word count extraction already made.
 *
 * The text decides first: a page whose HTML already shows text is never rendered, whatever its scripts (Next.js,
 * Nuxt, SvelteKit, Gatsby and WordPress pages are script-heavy but server-rendered). Only a page that shows almost
 * nothing without scripts (under SHELL_CHARS characters, at most FEW_ELEMENTS links, images, paragraphs and the
 * like), yet runs scripts, is rendered, and only for one of these reasons, checked in this order:
 * - `noscript-requires-js`: a `<noscript>` says, in words, that the page needs JavaScript ("You need to enable
 *   JavaScript to run this app."). A `<noscript>` holding only a tracking pixel or an iframe (Google Tag Manager),
 *   or only styles, says nothing.
 * - `empty-app-root`: the body holds a framework's mount point (`#root`, `#app`, `#__next`, `#__nuxt`, `#___gatsby`,
 *   `#svelte`, `<app-root>`, `data-reactroot`, `ng-version`, ...) and nothing to read, at most a "Loading...".
 * - `script-built-content`: no link, image, paragraph or any other content element at all, and either inline data
 *   for the scripts to build from (state such as `__INITIAL_STATE__`, `__NEXT_DATA__`, `self.__next_f`, inline JSON,
 *   `<template>`s) or a body that shows nothing but, at most, a loading message (an app that mounts on `<body>`:
 *   Svelte, Flutter, Ember).
 */

export type RenderReason = 'noscript-requires-js' | 'empty-app-root' | 'script-built-content';

export type RenderNeed = { render: false } | { render: true; reason: RenderReason };

export interface RenderNeedInput {
  /** The page's HTML, decoded. */
  html: string;
  /**
   * Words of the page's main content as extraction counted them (the record's wordCount), when it was extracted:
   * at CONTENT_WORDS or more the page has its text, and its HTML is not scanned at all.
   */
  contentWords?: number;
}

/** What a browser without scripts shows of a page, and what the page gives its scripts: read by string scans. */
export interface ShellFacts {
  /** Characters of text the body shows, whitespace not counted (script, style, noscript, template, svg left out). */
  visibleChars: number;
  /** Elements that are something to read or follow: links, images, media, paragraphs, headings, list items, ... */
  contentElements: number;
  /** Scripts a browser runs: with a src, or inline JavaScript (modules included); JSON and JSON-LD are not. */
  scripts: number;
  /** Bytes given to the scripts to build from: inline JSON (not JSON-LD), templates, inline JS holding a state. */
  dataBytes: number;
  /** Whether a `<noscript>` says, in words, that the page needs JavaScript. */
  noscriptAsksForJs: boolean;
  /** Whether the body holds a framework's mount point. */
  appRoot: boolean;
  /** Whether the text shown, if any, is only a loading message ("Loading...", "Bitte warten", "Chargement…"). */
  onlyLoading: boolean;
}

/** Main-content words at which a page has its text: it is not rendered, and not scanned. */
export const CONTENT_WORDS = 50;
/** Visible characters (whitespace not counted) at which a page is not a shell, whatever else it has. */
const SHELL_CHARS = 200;
/** Content elements past which a page is not a shell (a Blazor shell has two links in its hidden error bar). */
const FEW_ELEMENTS = 3;
/** A loading message is shorter than this. */
const LOADING_CHARS = 40;
/** Inline data that counts as the page's content, given to its scripts. */
const DATA_BYTES = 1024;

const SCRIPT = /<script(?=[\s/>])([^>]*)>([\s\S]*?)<\/script(?=[\s/>])[^>]*>/gi;
const NOSCRIPT = /<noscript(?=[\s/>])[^>]*>([\s\S]*?)<\/noscript(?=[\s/>])[^>]*>/gi;
const CONTENT_ELEMENT =
  /^<(?:a|img|picture|video|audio|iframe|embed|object|p|h[1-6]|li|dt|dd|td|th|pre|blockquote|figure|form|input|select|textarea)(?=[\s/>])/i;
const APP_ROOT_ID = 'root|app|__next|__nuxt|___gatsby|svelte|q-app|main-app|app-root|react-root|react-app|ember-app';
const APP_ROOT = new RegExp(
  `^<(?:[a-z][\\w-]*\\b[^>]*\\sid\\s*=\\s*["']?(?:${APP_ROOT_ID})["'\\s>/]|app-root\\b|[a-z][\\w-]*\\b[^>]*\\b(?:data-reactroot|ng-version|data-v-app|ng-app)\\b)`,
  'i',
);
/** Globals frameworks and stores put a page's state in, for the scripts to build the page from. */
const STATE =
  /__INITIAL_STATE__|__PRELOADED_STATE__|__APOLLO_STATE__|__NEXT_DATA__|__next_f|__NUXT__|__DATA__|__remixContext|__sveltekit|__INITIAL_PROPS__|__APP_STATE__|__INITIAL_DATA__|ytInitialData/;
/** "JavaScript" is written so in most languages ("enable JavaScript", "JavaScript aktivieren", "activez JavaScript"). */
const NAMES_JS = (text: string) => /\bjava\s?script\b/i.test(text) || /\bJS\b/.test(text);

const LOADING =
  /\b(?:loading|please wait|one moment|wird geladen|lädt|laden|bitte warten|chargement|cargando|caricamento|carregando)\b|загрузка|読み込み|加载|載入/i;

const NO: RenderNeed = { render: false };

const collapse = (text: string) =>
  text
    .replace(/&(?:#\d+|#x[\da-f]+|\w+);/gi, '_')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The body read token by token: comments, elements whose content a browser does not show as text (scripts, styles,
 * noscripts, svg, math, a stray title), templates (but not declarative shadow roots, which are shown), tags, text.
 * An element left open runs to the end, as in a browser. Text comes in runs of at most 256 characters, so a page
 * whose body is one long text is read only as far as the limit (a 33 KB paragraph took 0.55 ms whole).
 */
const TOKEN =
  /<!--[\s\S]*?(?:-->|$)|<(script|style|noscript|svg|math|title)(?=[\s/>])[\s\S]*?(?:<\/\1(?=[\s/>])[^>]*>|$)|<(template)(?=[\s/>])(?![^>]*shadowroot)[\s\S]*?(?:<\/template(?=[\s/>])[^>]*>|$)|<[^>]*>?|[^<]{1,256}/giy;

interface Shown {
  /** Characters of text shown, whitespace not counted: all of them below `limit`, at least `limit` past it. */
  chars: number;
  /** The text shown, whitespace collapsed (complete when `chars` is). */
  text: string;
  /** The tags of the elements shown (complete when `chars` is). */
  tags: string[];
  /** Bytes of templates: material for scripts. */
  templateBytes: number;
}

/** What the body shows without scripts, read until its text reaches `limit` characters. */
function readShown(html: string, limit: number): Shown {
  const shown: Shown = { chars: 0, text: '', tags: [], templateBytes: 0 };
  let text = '';
  TOKEN.lastIndex = Math.max(0, html.search(/<body[\s>]/i));
  for (let token = TOKEN.exec(html); token && shown.chars < limit; token = TOKEN.exec(html)) {
    const [match, hidden, template] = token;
    if (match.charCodeAt(0) !== 60 /* < */) {
      text += match;
      shown.chars += match.replace(/\s+/g, '').length;
    } else if (template) shown.templateBytes += match.length;
    else if (!hidden && !match.startsWith('<!--')) {
      shown.tags.push(match);
      text += ' ';
    }
  }
  shown.text = collapse(text);
  return shown;
}

/** The kind of a `<script>` by its type: run, data for scripts, or neither (JSON-LD, import maps, rules). */
function scriptKind(attributes: string): 'run' | 'data' | 'other' {
  const type = /\btype\s*=\s*["']?([^"'\s>]*)/i.exec(attributes)?.[1]?.toLowerCase() ?? '';
  if (type === '' || /javascript|ecmascript|module|babel|jsx/.test(type)) return 'run';
  if (type.includes('ld+json') || type === 'importmap' || type === 'speculationrules') return 'other';
  return 'data';
}

function readScripts(html: string): { scripts: number; dataBytes: number } {
  let scripts = 0;
  let dataBytes = 0;
  for (const [, attributes = '', body = ''] of html.matchAll(SCRIPT)) {
    const kind = scriptKind(attributes);
    if (kind === 'run') {
      if (/\bsrc\s*=/i.test(attributes) || body.trim()) scripts++;
      if (STATE.test(body)) dataBytes += body.length;
    } else if (kind === 'data') dataBytes += body.length;
  }
  return { scripts, dataBytes };
}

/** Whether a `<noscript>`'s words (not its styles, scripts or tags) name JavaScript. */
function noscriptAsksForJs(html: string): boolean {
  for (const [, inner = ''] of html.matchAll(NOSCRIPT))
    if (NAMES_JS(readShown(inner, Number.POSITIVE_INFINITY).text)) return true;
  return false;
}

function factsOf(html: string, shown: Shown): ShellFacts {
  const scripts = readScripts(html);
  const { text } = shown;
  return {
    visibleChars: shown.chars,
    contentElements: shown.tags.filter((tag) => CONTENT_ELEMENT.test(tag)).length,
    scripts: scripts.scripts,
    dataBytes: scripts.dataBytes + shown.templateBytes,
    noscriptAsksForJs: noscriptAsksForJs(html),
    appRoot: shown.tags.some((tag) => APP_ROOT.test(tag)),
    onlyLoading: text === '' || (text.length < LOADING_CHARS && LOADING.test(text)),
  };
}

/** Reads a page's HTML for what it shows without scripts and what it gives its scripts. */
export function shellFacts(html: string): ShellFacts {
  return factsOf(html, readShown(html, Number.POSITIVE_INFINITY));
}

/** The decision on what was read of a page (see the module's comment). */
export function decideRender(facts: ShellFacts): RenderNeed {
  if (facts.visibleChars >= SHELL_CHARS || facts.contentElements > FEW_ELEMENTS || facts.scripts === 0) return NO;
  if (facts.noscriptAsksForJs) return { render: true, reason: 'noscript-requires-js' };
  if (facts.appRoot) return { render: true, reason: 'empty-app-root' };
  if (facts.contentElements === 0 && (facts.dataBytes >= DATA_BYTES || facts.onlyLoading))
    return { render: true, reason: 'script-built-content' };
  return NO;
}

/** Whether a page fetched plainly needs a browser to show its content, and why (see the module's comment). */
export function renderNeed(input: RenderNeedInput): RenderNeed {
  if ((input.contentWords ?? 0) >= CONTENT_WORDS) return NO;
  const shown = readShown(input.html, SHELL_CHARS);
  if (shown.chars >= SHELL_CHARS) return NO;
  return decideRender(factsOf(input.html, shown));
}
