/**
 * extractPage (src/domain/extract/index.ts) cut into its steps and timed one by one, in Node, for
 * `npm run profile:extract`. The steps are the module's own functions called in the order extractPage calls them,
 * with the spec a crawl with `extract: { formats: ["markdown", "metadata"] }` gets. selectContent is timed whole, and
 * the main-content extractor alone (findMain) on a second parse of the page.
 */

import { selectContent } from '../../src/domain/extract/content.ts';
import { baseUrlOf, bodyOf, parseBounded, selectAll } from '../../src/domain/extract/dom.ts';
import { readImages } from '../../src/domain/extract/fields.ts';
import { linkedFacts, readJsonLd } from '../../src/domain/extract/json-ld.ts';
import { findMain } from '../../src/domain/extract/main/index.ts';
import { toMarkdown } from '../../src/domain/extract/markdown.ts';
import { readMetadata } from '../../src/domain/extract/metadata.ts';
import type { ExtractSpec } from '../../src/domain/extract/spec-schema.ts';
import { decodeHtml } from '../../src/domain/html/charset.ts';
import { readPage } from '../../src/domain/html/page.ts';
import { sha256Hex } from '../../src/domain/util/hash.ts';

const SPEC: ExtractSpec = {
  formats: ['markdown', 'metadata'],
  mainContent: true,
  include: [],
  exclude: [],
  fields: {},
};
const CONTENT_TYPE = 'text/html; charset=utf-8';

/** Steps in extractPage's order; `sc:findMain` is selectContent's extractor alone, timed on a second parse. */
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
  'sc:findMain',
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

/** One pass of extractPage's steps over a page. */
export async function timeSteps(body: Uint8Array, pageUrl: string): Promise<PageSteps> {
  const times: Partial<Record<Step, number>> = {};
  const lap = timer(times);
  const warnings: string[] = [];
  const { text: html } = lap('decode', () => decodeHtml(body, CONTENT_TYPE));
  const document = lap('parse', () => parseBounded(html, warnings).document);
  const elements = selectAll(document, '*').length;
  const base = lap('metadata', () => baseUrlOf(document, pageUrl));
  const jsonLd = lap('jsonLd', () => readJsonLd(document, warnings));
  lap('metadata', () => readMetadata(document, base, linkedFacts(jsonLd)));
  lap('links', () => readPage(document, pageUrl));
  lap('images*', () => readImages(document.documentElement, base));
  const reparse = () => parseBounded(html, []).document;
  const { root, source } = lap('selectContent', () => selectContent(document, SPEC, warnings, { again: reparse }));
  const text = lap('text', () => toMarkdown(root, base, 'text'));
  lap('markdown', () => toMarkdown(root, base));
  const started = performance.now();
  text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}][\p{L}\p{N}\p{M}'’_-]*/gu);
  await sha256Hex(text);
  times['words+hash'] = performance.now() - started;
  const again = parseBounded(html, []).document;
  lap('sc:findMain', () => findMain(bodyOf(again)));
  return { times, elements, source };
}
