/**
 * npm run fit:blocks -- fits the learned last decision on the content's blocks (src/domain/extract/main/blocks.ts)
 * on the dev halves of trafilatura's evaluation set and web-content-2025 (../shared/corpora), and writes its weights
 * to src/domain/extract/main/block-model.json:
 * 1. Each dev page (even index in its evaldata.json, as measure:extract splits it) goes through extraction without
 *    the model; each block of its content is labelled (scripts/lib/block-labels.ts): by the page's snippets, and on
 *    web-content-2025 by its main text too. Contents holding code, and whole bodies taken instead of a detected
 *    content, are left out (the model never runs on them).
 * 2. A logistic regression is fit on those blocks (scripts/lib/logistic.ts), each set weighing as much as the other.
 * 3. The threshold is chosen on the dev halves by the mean of the two sets' scores, each set weighing as much as the
 *    other (as in the fit): trafilatura's snippet F1, and web-content's mean of its snippet and token F1; the dev
 *    contents cut again at each threshold.
 * 4. Both halves of both sets are then extracted with and without the model and printed; the held-out halves (odd
 *    index) are read only here, never to fit or choose. DRY=1 prints the model without writing it.
 * Deterministic: the same pages and code give the same file.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { labelOf, mainText } from './lib/block-labels.ts';
import { type Page, pagesOf, type SetName, setDir } from './lib/block-pages.ts';
import { emptyTally, type Figures, figuresOf, shown, tallyPage } from './lib/extract-score.ts';
import { fitLogistic, type Rows } from './lib/logistic.ts';

register('./lib/ts-resolve.mjs', import.meta.url);
const { decodeHtml } = await import('../src/domain/html/charset.ts');
const { bodyOf, parseBounded } = await import('../src/domain/extract/dom.ts');
const { selectContent } = await import('../src/domain/extract/content.ts');
const { toMarkdown } = await import('../src/domain/extract/markdown.ts');
const { blocksOf, dropBoilerplate, featuresOf, kept } = await import('../src/domain/extract/main/blocks.ts');
const { FEATURES, NO_MODEL } = await import('../src/domain/extract/main/block-model.ts');
type BlockModel = typeof NO_MODEL;

const root = new URL('../', import.meta.url).pathname;
const corpora = join(root, '../shared/corpora');
const SETS = (['trafilatura', 'web'] as const).filter((set) => setDir(corpora, set));
if (SETS.length === 0) {
  console.log(`fit:blocks: no corpora at ${corpora}; nothing to fit.`);
  process.exit(0);
}
const SPEC = { formats: ['text' as const], mainContent: true, include: [], exclude: [], fields: {} };
const THRESHOLDS = [0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 0.8];

/**
 * A dev page's content without the model, kept as HTML to cut again at each threshold; `skip` when the model is not
 * run on it (a content holding code, or the whole body taken instead of a detected content).
 */
interface Cached {
  page: Page;
  content: string;
  skip: boolean;
}

const htmlOf = (page: Page) => decodeHtml(page.bytes, 'text/html').text;
const selected = (html: string, model: BlockModel) =>
  selectContent(parseBounded(html, []).document, SPEC, [], { model, again: () => parseBounded(html, []).document });
const contentOf = (html: string, model: BlockModel) => selected(html, model).root;

/** The dev pages' contents, and their labelled blocks (each set's rows weighing 1 in all). */
function prepare(dev: Page[]): { cached: Cached[]; rows: Rows } {
  const cached: Cached[] = [];
  const rows: Rows = { x: [], y: [], w: [] };
  for (const set of SETS) {
    const start = rows.y.length;
    for (const page of dev.filter((p) => p.set === set)) {
      const { root: content, source } = selected(htmlOf(page), NO_MODEL);
      const skip = source !== 'detected' || content.querySelector('pre, code') !== null;
      cached.push({ page, content: content.outerHTML, skip });
      if (skip) continue;
      const main = page.main === undefined ? null : mainText(page.main);
      const blocks = blocksOf(content);
      const features = featuresOf(content, blocks);
      for (const [i, block] of blocks.entries()) {
        const label = labelOf(block.text, page, main);
        if (label === null || kept(block)) continue;
        rows.x.push(features[i] ?? []);
        rows.y.push(label);
      }
    }
    const n = rows.y.length - start;
    for (let i = start; i < rows.y.length; i++) rows.w.push(1 / (n || 1));
    const boiler = rows.y.slice(start).filter((v) => v === 1).length;
    console.log(`${set} dev: ${n} labelled blocks (${boiler} boilerplate)`);
  }
  return { cached, rows };
}

/** A cached content parsed again: the element it was (or the body, when it was the body). */
function parsedAgain(content: string) {
  const body = bodyOf(parseBounded(`<html><body>${content}</body></html>`, []).document);
  const only = body.children.length === 1 && body.children[0];
  return only && only.localName !== 'body' && body.childNodes.length === 1 ? only : body;
}

/** The dev figures per set at a model, the cached contents cut again. */
function sweep(cached: Cached[], model: BlockModel): Map<SetName, Figures> {
  const tallies = new Map(SETS.map((set) => [set, emptyTally()]));
  for (const { page, content, skip } of cached) {
    const element = parsedAgain(content);
    if (!skip) dropBoilerplate(element, model);
    const tally = tallies.get(page.set);
    if (tally) tallyPage(tally, page, toMarkdown(element, page.url, 'text'));
  }
  return new Map([...tallies].map(([set, tally]) => [set, figuresOf(tally)]));
}

/**
 * What the threshold is chosen by: the mean over the sets, each set weighing the same, of its score (its snippet F1,
 * averaged with its token F1 where it has one).
 */
function objective(figures: Map<SetName, Figures>): number {
  const values = [...figures.values()].map((f) => (f.tokens === null ? f.f1 : (f.f1 + f.tokens) / 2));
  return values.reduce((a, b) => a + b, 0) / (values.length || 1);
}

/** Figures of a half extracted as extraction runs (selectContent, then text). */
function scored(pages: Page[], model: BlockModel): Figures {
  const tally = emptyTally();
  for (const page of pages) tallyPage(tally, page, toMarkdown(contentOf(htmlOf(page), model), page.url, 'text'));
  return figuresOf(tally);
}

const line = (figures: Map<SetName, Figures>) => [...figures].map(([set, f]) => `${set} ${shown(f)}`).join('; ');

const dev = SETS.flatMap((set) => pagesOf(corpora, set, 0));
const { cached, rows } = prepare(dev);
const fitted = fitLogistic(rows, FEATURES.length);
for (const [f, name] of FEATURES.entries())
  console.log(`  ${(fitted.weights[f] ?? 0).toFixed(3).padStart(7)}  ${name}`);
let best = { threshold: 1, value: objective(sweep(cached, NO_MODEL)) };
console.log(`dev without the model (cut again): ${line(sweep(cached, NO_MODEL))}`);
for (const threshold of THRESHOLDS) {
  const figures = sweep(cached, { ...fitted, threshold });
  const value = objective(figures);
  console.log(`dev, threshold ${threshold}: ${line(figures)} (mean ${value.toFixed(4)})`);
  if (value > best.value) best = { threshold, value };
}
const model: BlockModel = { ...fitted, threshold: best.threshold };
const report: string[] = [];
for (const set of SETS)
  for (const half of [0, 1] as const) {
    const pages = half === 0 ? dev.filter((p) => p.set === set) : pagesOf(corpora, set, 1);
    const [before, after] = [scored(pages, NO_MODEL), scored(pages, model)];
    report.push(`${set} ${half ? 'held-out' : 'dev'} ${shown(before)} -> ${shown(after)}`);
    console.log(report.at(-1));
  }

const round = (values: readonly number[]) => values.map((v) => Number(v.toFixed(4)));
const stored = {
  fit: `npm run fit:blocks: ${rows.y.length} labelled blocks of the dev halves of ${SETS.join(' and ')}; threshold ${model.threshold} chosen on them. Without the model -> with it: ${report.join('; ')}.`,
  features: FEATURES,
  bias: Number(model.bias.toFixed(4)),
  weights: round(model.weights),
  mean: round(model.mean),
  scale: round(model.scale),
  threshold: model.threshold,
};
const json = `${JSON.stringify(stored, null, 2)}\n`;
const file = join(root, 'src/domain/extract/main/block-model.json');
if (process.env.DRY) console.log(json);
else {
  writeFileSync(file, json);
  // Formatted as the repository's formatter wants it, so that `biome check` passes on the file written.
  execFileSync(join(root, 'node_modules/.bin/biome'), ['format', '--write', file], { stdio: 'ignore' });
}
