/**
 * extractPage (src/domain/extract/index.ts) cut into its steps and timed one by one, in Node, for
 * `npm run profile:extract`. The steps are the module's own functions called in the order extractPage calls them,
 * with the spec a crawl with `extract: { formats: ["markdown", "metadata"] }` gets. selectContent is timed whole, and
 * its parts (clutter removal, the size guards, the body's clone, Readability) on a second parse of the page, from a
 * copy of its code (content.ts does not export them).
 */
import { Readability } from '@mozilla/readability';
import { decodeHtml } from '../../src/domain/charset.ts';
import { selectContent } from '../../src/domain/extract/content.ts';
import {
  baseUrlOf,
  type DomDocument,
  type DomElement,
  nestsDeeperThan,
  parseDocument,
  selectAll,
} from '../../src/domain/extract/dom.ts';
import { readImages } from '../../src/domain/extract/fields.ts';
import { linkedFacts, readJsonLd } from '../../src/domain/extract/json-ld.ts';
import { toMarkdown } from '../../src/domain/extract/markdown.ts';
import { readMetadata } from '../../src/domain/extract/metadata.ts';
import { type ExtractSpec, PAGE_LIMITS } from '../../src/domain/extract/spec.ts';
import { sha256Hex } from '../../src/domain/hash.ts';
import { readPage } from '../../src/domain/html.ts';

const SPEC: ExtractSpec = {
  formats: ['markdown', 'metadata'],
  mainContent: true,
  include: [],
  exclude: [],
  fields: {},
};
const CONTENT_TYPE = 'text/html; charset=utf-8';

/** Steps in extractPage's order; the `sc:` ones are selectContent's parts, timed on a second parse. */
export const STEPS = [
  'decode',
  'parse',
  'jsonLd',
  'metadata',
  'links',
  'selectContent',
  'text',
  'markdown',
  'words+hash',
  'sc:clutter',
  'sc:guards',
  'sc:clone',
  'sc:readability',
  'images*',
] as const;
type Step = (typeof STEPS)[number];

export interface PageSteps {
  times: Partial<Record<Step, number>>;
  elements: number;
  source: string;
}

type Lap = <T>(step: Step, fn: () => T) => T;

function timer(times: Partial<Record<Step, number>>): Lap {
  return (step, fn) => {
    const started = performance.now();
    const out = fn();
    times[step] = (times[step] ?? 0) + performance.now() - started;
    return out;
  };
}

const NEVER = 'script, style, noscript, template, iframe, object, embed, [hidden], [aria-hidden="true"]';
const CLUTTER =
  /(^|[\s_-])(cookie|cookies|consent|gdpr|ccpa|onetrust|cookiebot|didomi|truste|qc-cmp|cmp|share|sharing|social-share|newsletter-signup)([\s_-]|$)/i;

/** selectContent's parts, as content.ts runs them for the default spec. */
function contentParts(document: DomDocument, lap: Lap): void {
  lap('sc:clutter', () => {
    for (const element of selectAll(document, NEVER)) element.remove();
    for (const element of selectAll(document, '[id], [class], [role="dialog"], [role="alertdialog"]')) {
      const names = `${element.getAttribute('id') ?? ''} ${element.getAttribute('class') ?? ''} ${element.getAttribute('aria-label') ?? ''}`;
      if (CLUTTER.test(names) && (element.textContent ?? '').length <= 1500 && element.localName !== 'body')
        element.remove();
    }
  });
  const body = document.body ?? document.documentElement;
  const skip = lap(
    'sc:guards',
    () => nestsDeeperThan(body, PAGE_LIMITS.depth) || selectAll(body, '*').length > PAGE_LIMITS.detectElements,
  );
  if (skip) return;
  lap('sc:clone', () => body.cloneNode(true));
  lap('sc:readability', () => {
    document.querySelector('h1')?.textContent;
    return new Readability<DomElement>(document, { keepClasses: true, serializer: (node) => node }).parse();
  });
}

/** One pass of extractPage's steps over a page. */
export async function timeSteps(body: Uint8Array, pageUrl: string): Promise<PageSteps> {
  const times: Partial<Record<Step, number>> = {};
  const lap = timer(times);
  const warnings: string[] = [];
  const { text: html } = lap('decode', () => decodeHtml(body, CONTENT_TYPE));
  const document = lap('parse', () => parseDocument(html));
  const elements = selectAll(document, '*').length;
  const base = lap('metadata', () => baseUrlOf(document, pageUrl));
  const jsonLd = lap('jsonLd', () => readJsonLd(document, warnings));
  lap('metadata', () => readMetadata(document, base, linkedFacts(jsonLd)));
  lap('links', () => readPage(document, pageUrl));
  lap('images*', () => readImages(document.documentElement, base));
  const { root, source } = lap('selectContent', () => selectContent(document, SPEC, warnings));
  const text = lap('text', () => toMarkdown(root, base, 'text'));
  lap('markdown', () => toMarkdown(root, base));
  const started = performance.now();
  text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}][\p{L}\p{N}\p{M}'’_-]*/gu);
  await sha256Hex(text);
  times['words+hash'] = performance.now() - started;
  contentParts(parseDocument(html), lap);
  return { times, elements, source };
}
