/**
 * npm run fit:blocks -- fits the learned last decision on the content's blocks (src/domain/extract/main/blocks.ts,
 * block-model.ts) on trafilatura's evaluation set (../shared/corpora/trafilatura-eval), and writes its weights into
 * block-model.ts:
 * 1. Each dev page (even index in evaldata.json, as measure:extract and bench:extract split it) goes through
 *    extraction without the model; each block of its content is labelled from the page's human snippets: boilerplate
 *    when a `without` snippet is in it (or it in one), content when a `with` snippet is; blocks with neither or both
 *    are not used.
 * 2. A logistic regression (features standardized, L2, full-batch gradient descent) is fit on those blocks.
 * 3. The threshold is chosen on the dev half by its snippet F1 (the pages extracted again with the model); the
 *    held-out half (odd index) is then scored once at that threshold and reported, never used to choose.
 * Nothing of the held-out half is read before step 3. DRY=1 prints without writing.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

register('./lib/ts-resolve.mjs', import.meta.url);
const { decodeHtml } = await import('../src/domain/html/charset.ts');
const { parseBounded } = await import('../src/domain/extract/dom.ts');
const { selectContent } = await import('../src/domain/extract/content.ts');
const { toMarkdown } = await import('../src/domain/extract/markdown.ts');
const { blocksOf, featuresOf } = await import('../src/domain/extract/main/blocks.ts');
const { FEATURES, NO_MODEL } = await import('../src/domain/extract/main/block-model.ts');
type BlockModel = typeof NO_MODEL;

const root = new URL('../', import.meta.url).pathname;
const corpus = join(root, '../shared/corpora/trafilatura-eval');
if (!existsSync(corpus)) {
  console.log(`fit:blocks: no corpus at ${corpus}; nothing to fit.`);
  process.exit(0);
}
const SPEC = { formats: ['text' as const], mainContent: true, include: [], exclude: [], fields: {} };
const norm = (s: string) => s.replace(/[\s\u00a0]+/g, ' ').trim();

interface Page {
  url: string;
  html: string;
  with: string[];
  without: string[];
}

function pages(half: 0 | 1): Page[] {
  const data = JSON.parse(readFileSync(join(corpus, 'evaldata.json'), 'utf8')) as Record<
    string,
    { file: string; with: string[]; without: string[] }
  >;
  return Object.entries(data)
    .filter((_, i) => i % 2 === half)
    .map(([url, item]) => ({
      url,
      html: decodeHtml(gunzipSync(readFileSync(join(corpus, 'html', `${item.file}.gz`))), 'text/html').text,
      with: item.with.map(norm),
      without: item.without.map(norm),
    }));
}

const contentOf = (page: Page, model: BlockModel) =>
  selectContent(parseBounded(page.html, []).document, SPEC, [], {
    model,
    again: () => parseBounded(page.html, []).document,
  }).root;

const overlaps = (text: string, snippet: string) =>
  text.includes(snippet) || (text.length >= 15 && snippet.includes(text));

/** Labelled blocks of the dev pages: features, and 1 for boilerplate, 0 for content. */
function labelled(dev: Page[]): { x: number[][]; y: number[] } {
  const x: number[][] = [];
  const y: number[] = [];
  for (const page of dev) {
    const content = contentOf(page, NO_MODEL);
    const blocks = blocksOf(content);
    const features = featuresOf(content, blocks);
    for (const [i, block] of blocks.entries()) {
      const text = norm(block.text);
      const good = page.with.some((s) => overlaps(text, s));
      const bad = page.without.some((s) => overlaps(text, s));
      if (good === bad) continue;
      x.push(features[i] ?? []);
      y.push(bad ? 1 : 0);
    }
  }
  return { x, y };
}

function logistic(x: number[][], y: number[]): Omit<BlockModel, 'threshold'> {
  const n = x.length;
  const d = FEATURES.length;
  const mean = Array.from({ length: d }, (_, f) => x.reduce((s, r) => s + (r[f] ?? 0), 0) / n);
  const scale = mean.map((m, f) => Math.sqrt(x.reduce((s, r) => s + ((r[f] ?? 0) - m) ** 2, 0) / n) || 1);
  const z = x.map((r) => r.map((v, f) => (v - (mean[f] ?? 0)) / (scale[f] ?? 1)));
  const weights = new Array<number>(d).fill(0);
  let bias = 0;
  const [rate, l2] = [0.5, 0.01];
  for (let step = 0; step < 4000; step++) {
    const grad = new Array<number>(d).fill(0);
    let gradBias = 0;
    for (let i = 0; i < n; i++) {
      const row = z[i] ?? [];
      const p = 1 / (1 + Math.exp(-(bias + row.reduce((s, v, f) => s + v * (weights[f] ?? 0), 0))));
      const error = p - (y[i] ?? 0);
      gradBias += error;
      for (let f = 0; f < d; f++) grad[f] = (grad[f] ?? 0) + error * (row[f] ?? 0);
    }
    bias -= (rate * gradBias) / n;
    for (let f = 0; f < d; f++) weights[f] = (weights[f] ?? 0) - rate * ((grad[f] ?? 0) / n + l2 * (weights[f] ?? 0));
  }
  return { bias, weights, mean, scale };
}

/** Snippet P, R and F1 of a half with a model, as score.py counts them. */
function score(half: Page[], model: BlockModel): { p: number; r: number; f1: number } {
  let [tp, fp, fn] = [0, 0, 0];
  for (const page of half) {
    const text = norm(toMarkdown(contentOf(page, model), page.url, 'text'));
    const found = page.with.filter((s) => text.includes(s)).length;
    tp += found;
    fn += page.with.length - found;
    fp += page.without.filter((s) => text.includes(s)).length;
  }
  return { p: tp / (tp + fp), r: tp / (tp + fn), f1: (2 * tp) / (2 * tp + fp + fn) };
}

const figures = (s: { p: number; r: number; f1: number }) =>
  `P ${s.p.toFixed(3)} R ${s.r.toFixed(3)} F1 ${s.f1.toFixed(3)}`;

const dev = pages(0);
const { x, y } = labelled(dev);
console.log(`dev: ${dev.length} pages, ${x.length} labelled blocks (${y.filter((v) => v === 1).length} boilerplate)`);
const fitted = logistic(x, y);
for (const [f, name] of FEATURES.entries())
  console.log(`  ${(fitted.weights[f] ?? 0).toFixed(3).padStart(7)}  ${name}`);
const before = score(dev, NO_MODEL);
console.log(`dev without the model: ${figures(before)}`);
let best = { threshold: 1, f1: before.f1 };
for (const threshold of [0.2, 0.3, 0.4, 0.5, 0.6]) {
  const s = score(dev, { ...fitted, threshold });
  console.log(`dev, threshold ${threshold}: ${figures(s)}`);
  if (s.f1 > best.f1) best = { threshold, f1: s.f1 };
}
const model: BlockModel = { ...fitted, threshold: best.threshold };
const held = pages(1);
const heldBefore = score(held, NO_MODEL);
const heldAfter = score(held, model);
console.log(`held-out without: ${figures(heldBefore)}; with (threshold ${best.threshold}): ${figures(heldAfter)}`);

const round = (values: readonly number[]) => `[${values.map((v) => Number(v.toFixed(4))).join(', ')}]`;
const file = join(root, 'src/domain/extract/main/block-model.ts');
const source = readFileSync(file, 'utf8');
const previous = source.indexOf('/**\n * Fit by');
const at = previous >= 0 ? previous : source.indexOf('export const BLOCK_MODEL');
const written = `${source.slice(0, at)}/**
 * Fit by \`npm run fit:blocks\` on ${x.length} labelled blocks of trafilatura's dev half; threshold chosen on the dev
 * half. Dev F1 ${before.f1.toFixed(3)} -> ${figures(score(dev, model))}; held-out (never used to fit or choose)
 * ${heldBefore.f1.toFixed(3)} -> ${figures(heldAfter)}.
 */
export const BLOCK_MODEL: BlockModel = {
  bias: ${Number(model.bias.toFixed(4))},
  weights: ${round(model.weights)},
  mean: ${round(model.mean)},
  scale: ${round(model.scale)},
  threshold: ${model.threshold},
};
`;
if (process.env.DRY) console.log(written.slice(at));
else writeFileSync(file, written);
