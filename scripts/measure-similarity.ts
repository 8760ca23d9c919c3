/**
 * npm run measure:similarity -- how the SimHash sketches of src/domain/similarity/ (docs/similarity.md) separate
 * near-duplicates from different pages, on real pages, and where their thresholds come from:
 * - every page of the shared corpora (../shared/corpora: trafilatura-eval, web-content-2025, readability-test-pages)
 *   and of the documentation sets installed here (lib/docs-sets.ts; SAMPLE pages of each, default 300), their main
 *   text extracted as a crawl extracts it (lib/similarity-pages.ts; CACHE=<file.jsonl> keeps the texts);
 * - all pairs, within each set and across sets, for the plain and the template sketch: the histogram of distances,
 *   the pairs that are the same text (Jaccard of the sketch's own features, word 3-shingles, >= SAME_TEXT: true
 *   duplicates, listed) and the closest truly different pairs per set; the thresholds are checked against them;
 * - synthetic positives and negatives built from those pages (lib/similarity-synthetic.ts);
 * - short texts: what SimHash does with a few tokens (why they are hashed exactly);
 * - the time of a sketch per page in Node, median and p99.
 * COMPARE=1 first compares feature designs (shingle sizes, weights, the short-text size) on the same pages.
 */
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { loadPages, type TextPage } from './lib/similarity-pages.ts';
import { allPairs, type Close, DIFFERENT, jaccard, type PairStats, SAME_TEXT } from './lib/similarity-pairs.ts';
import {
  calendarSeries,
  facetPairs,
  notFoundPages,
  positives,
  productCatalog,
  type SyntheticPair,
  seeded,
  type Version,
} from './lib/similarity-synthetic.ts';

register('./lib/ts-resolve.mjs', import.meta.url);
const S = await import('../src/domain/similarity/sketch.ts');
const { tokenize } = await import('../src/domain/similarity/tokens.ts');
const { templateTokens } = await import('../src/domain/similarity/template.ts');
type Design = import('../src/domain/similarity/sketch.ts').SketchDesign;
type Tokens = import('../src/domain/similarity/tokens.ts').Tokens;

const root = new URL('../', import.meta.url).pathname;
const corpora = join(root, '../shared/corpora');

const K = S.NEAR_DUPLICATE_DISTANCE;
const KT = S.TEMPLATE_DISTANCE;
/** Bits between the threshold and the closest truly different pair that a threshold must leave free. */
const MARGIN = 1;
const pct = (n: number, of: number) => `${of ? ((100 * n) / of).toFixed(1) : '-'}%`;

/** A text's tokens as the plain sketch reads them, and as the template sketch does. */
const plainTokens = (v: Version) => tokenize(v.text);
const templateOf = (v: Version) => templateTokens(tokenize(v.text), v.url);
const plainSketch = (v: Version) => S.sketch(v.text);
const templateSketch = (v: Version) => S.templateSketch(v.text, v.url);

function distance(a: string | null, b: string | null): number | null {
  return a === null || b === null ? null : S.hammingDistance(a, b);
}

/** Each page's tokens, sketch and feature set, plain or template. */
function sketchPages(pages: TextPage[], read: (v: Version) => Tokens, design: Design = S.SKETCH_DESIGN) {
  const tokens = pages.map(read);
  const sketches = tokens.map((t) => S.sketchTokens(t, design));
  const features = tokens.map((t) => S.featureKeys(t));
  return { tokens, sketches, features };
}

function pairName(pages: TextPage[], c: Close): string {
  const name = (p: TextPage | undefined) => (p ? `${p.set}/${p.name}` : '?');
  return `d=${c.distance} J=${c.jaccard.toFixed(2)} ${name(pages[c.i])} ~ ${name(pages[c.j])}`;
}

const band = (c: Close) => (c.jaccard >= SAME_TEXT ? 'same' : c.jaccard >= DIFFERENT ? 'sibling' : 'different');
const WINDOW = 16;
/** Pages of fewer template tokens than this are the short pages of a catalog. */
const SHORT = 150;

/** The closest pairs of each set (and across sets) that `keep` accepts, up to `most` a set (and how many). */
function closestPerSet(pages: TextPage[], close: Close[], keep: (c: Close) => boolean, most = 3, count = false) {
  const setOf = (c: Close) => (pages[c.i]?.set === pages[c.j]?.set ? (pages[c.i]?.set ?? '?') : 'across sets');
  for (const set of [...new Set(pages.map((p) => p.set)), 'across sets']) {
    const all = close.filter((c) => keep(c) && setOf(c) === set);
    const head = count ? `${set} (${all.length})` : set;
    if (all.length)
      console.log(
        `    ${head}: ${all
          .slice(0, most)
          .map((c) => pairName(pages, c))
          .join('\n      ')}`,
      );
  }
}

/**
 * The pairs of the three bands (J: Jaccard of the two texts' features): the same text (true duplicates, listed),
 * template siblings and truly different pages (the closest of each set), and how many of each every threshold finds.
 */
function reportPairs(label: string, pages: TextPage[], stats: PairStats, threshold: number): void {
  console.log(`\n${label}: ${stats.pairs.toLocaleString('en')} pairs; pairs at each distance 0..24:`);
  console.log(
    `  ${stats.histogram
      .slice(0, 25)
      .map((n, d) => `${d}:${n}`)
      .join(' ')}`,
  );
  const same = stats.close.filter((c) => band(c) === 'same' && c.distance <= threshold + 4);
  const within = same.filter((c) => c.distance <= threshold).length;
  console.log(
    `  the same text (J >= ${SAME_TEXT}: true duplicates): ${within} pairs within ${threshold} bits, ${same.length} within ${threshold + 4}; per set (SAME=n: n a set):`,
  );
  closestPerSet(pages, same, () => true, Number(process.env.SAME ?? 3), true);
  console.log(`  template siblings (${DIFFERENT} <= J < ${SAME_TEXT}), closest per set:`);
  closestPerSet(pages, stats.close, (c) => band(c) === 'sibling' && c.distance <= threshold + 4);
  console.log(`  truly different (J < ${DIFFERENT}), closest per set (within ${WINDOW} bits):`);
  closestPerSet(pages, stats.close, (c) => band(c) === 'different', 2);
  console.log('  pairs within each threshold, by band (same text / template siblings / truly different):');
  const row = (k: number) => {
    const n = (b: string) => stats.close.filter((c) => c.distance <= k && band(c) === b).length;
    return `d <= ${k}: ${n('same')} / ${n('sibling')} / ${n('different')}`;
  };
  console.log(`    ${[0, 1, 2, 3, 4, 5, 6, 7, 8].map(row).join(' | ')}`);
  const floor = (b: string) => stats.close.find((c) => band(c) === b)?.distance ?? WINDOW + 1;
  console.log(
    `  threshold d <= ${threshold} (similarity >= ${(1 - threshold / 64).toFixed(4)}): closest truly different pair at d=${floor('different')} (${floor('different') - threshold - 1} bits of margin, wanted >= ${MARGIN}); closest template sibling at d=${floor('sibling')}`,
  );
}

interface Scored extends SyntheticPair {
  distance: number | null;
}

const scored = (pairs: SyntheticPair[], sketchOf: (v: Version) => string | null): Scored[] =>
  pairs.map((p) => ({ ...p, distance: distance(sketchOf(p.a), sketchOf(p.b)) }));

/** Distances of synthetic pairs, per kind: the share within the threshold, median, p90 and most. */
function reportSynthetic(title: string, pairs: Scored[], k: number) {
  console.log(`\n${title} (found: distance <= ${k})`);
  for (const kind of [...new Set(pairs.map((p) => p.kind))]) {
    const ds = pairs
      .filter((p) => p.kind === kind)
      .map((p) => p.distance)
      .filter((d): d is number => d !== null)
      .sort((a, b) => a - b);
    const q = (x: number) => ds[Math.min(ds.length - 1, Math.floor(x * ds.length))];
    console.log(
      `  ${kind.padEnd(30)} ${String(ds.length).padStart(6)} pairs, found ${pct(ds.filter((d) => d <= k).length, ds.length).padStart(6)}; distance min ${ds[0]}, median ${q(0.5)}, p90 ${q(0.9)}, max ${ds.at(-1)}`,
    );
  }
}

/** Positives by the size of the page they were made from. */
function reportBySize(pairs: Scored[], sizes: Map<string, number>, k: number) {
  const buckets: [string, number, number][] = [
    ['8-99 tokens', 8, 100],
    ['100-299', 100, 300],
    ['300-999', 300, 1000],
    ['1000+', 1000, Number.POSITIVE_INFINITY],
  ];
  console.log(`  found (d <= ${k}) by the size of the page in tokens:`);
  for (const kind of ['counter', 'timestamp', 'sentence added', 'session id']) {
    const cells = buckets.map(([name, lo, hi]) => {
      const these = pairs.filter(
        (p) => p.kind === kind && (sizes.get(p.from) ?? 0) >= lo && (sizes.get(p.from) ?? 0) < hi,
      );
      return `${name} ${pct(these.filter((p) => p.distance !== null && p.distance <= k).length, these.length)} of ${these.length}`;
    });
    console.log(`    ${kind.padEnd(16)} ${cells.join(' | ')}`);
  }
}

/** The pairs of a list of versions (of its first `limit`), as one kind. */
function pairsOf(kind: string, versions: Version[], limit = versions.length): SyntheticPair[] {
  const list = versions.slice(0, limit);
  return list.flatMap((a, i) => list.slice(i + 1).map((b) => ({ kind, a, b, from: kind })));
}

/** The plain sketch on every page and pair: same-text pairs, closest different pairs, synthetic positives. */
function measurePlain(pages: TextPage[]) {
  const plain = sketchPages(pages, plainTokens);
  const truth = (i: number, j: number) => jaccard(plain.features[i] ?? new Set(), plain.features[j] ?? new Set());
  reportPairs('Plain sketch, all pairs', pages, allPairs(plain.sketches, truth, WINDOW), K);
  const sizes = new Map(pages.map((p, i) => [p.name, plain.tokens[i]?.a.length ?? 0]));
  const withText = pages.filter((p) => (sizes.get(p.name) ?? 0) >= 8);
  const pos = scored(positives(withText), plainSketch);
  reportSynthetic('Plain sketch, synthetic positives (from every page of 8+ tokens)', pos, K);
  reportBySize(pos, sizes, K);
  return plain;
}

/** The template sketch on every page and pair (truth: the larger of the plain and the template Jaccard). */
function measureTemplate(pages: TextPage[], plain: { features: Set<number>[] }) {
  const template = sketchPages(pages, templateOf);
  const truth = (i: number, j: number) => {
    const [pi, pj, ti, tj] = [plain.features[i], plain.features[j], template.features[i], template.features[j]];
    return Math.max(jaccard(pi ?? new Set(), pj ?? new Set()), jaccard(ti ?? new Set(), tj ?? new Set()));
  };
  reportPairs('Template sketch, all pairs', pages, allPairs(template.sketches, truth, WINDOW), KT);
  console.log(`  short real pages (under ${SHORT} tokens of template) of one kind, template sketch:`);
  const groups = new Map<string, number[]>();
  for (const [i, p] of pages.entries()) {
    if ((template.tokens[i]?.a.length ?? 0) >= SHORT) continue;
    const group = p.type === 'product' ? "the corpora's product pages" : p.set.startsWith('docs:') ? p.set : '';
    if (group) groups.set(group, [...(groups.get(group) ?? []), i]);
  }
  for (const [group, index] of groups) {
    if (index.length < 2) continue;
    const stats = allPairs(
      index.map((i) => template.sketches[i] ?? null),
      (i, j) => truth(index[i] ?? 0, index[j] ?? 0),
      64,
    );
    const nearest = stats.close.find((c) => band(c) !== 'same');
    const name = (k: number | undefined) => pages[index[k ?? 0] ?? 0]?.name ?? '?';
    const within = (b: string) => stats.close.filter((c) => c.distance <= KT && band(c) === b).length;
    console.log(
      `    ${group}: ${index.length} pages, ${stats.pairs} pairs; within ${KT}: ${within('same')} same text, ${within('sibling')} siblings, ${within('different')} different; closest not the same text: d=${nearest?.distance} J=${nearest?.jaccard.toFixed(2)} (${name(nearest?.i)} ~ ${name(nearest?.j)})`,
    );
  }
}

function measureTemplateSynthetic(pages: TextPage[]) {
  const articles = pages.filter((p) => !p.set.startsWith('docs:'));
  const series = calendarSeries();
  const pos = [
    ...pairsOf('not-found echoing its path', notFoundPages(articles, 200)),
    ...Object.entries(series).flatMap(([lang, months]) => pairsOf(`calendar months (${lang})`, months)),
    ...facetPairs(articles),
    ...positives(articles.slice(0, 600)).filter((p) => p.kind === 'session id'),
  ];
  const negatives = [
    ...pairsOf('products, 8-15 word texts', productCatalog(articles, 8, 15), 150),
    ...pairsOf('products, 15-30 word texts', productCatalog(articles, 15, 30), 150),
    ...pairsOf('products, 30-60 word texts', productCatalog(articles, 30, 60), 150),
  ];
  reportSynthetic('Template sketch, synthetic positives', scored(pos, templateSketch), KT);
  reportSynthetic('Plain sketch, the same positives', scored(pos, plainSketch), K);
  reportSynthetic('Template sketch, synthetic negatives (must not be found)', scored(negatives, templateSketch), KT);
  reportSynthetic('Plain sketch, the same negatives', scored(negatives, plainSketch), K);
}

/** Lines of the corpora with lo to hi words (distinct), at most `limit`. */
function linesOfSize(pages: TextPage[], lo: number, hi: number, limit: number): string[] {
  const found = new Set<string>();
  for (const page of pages)
    for (const line of page.text.split('\n')) {
      const n = tokenize(line).a.length;
      if (n >= lo && n <= hi) found.add(line);
      if (found.size >= limit) return [...found];
    }
  return [...found];
}

/** A line with `share` of its words (at least one) replaced by other words. */
function changed(line: string, share: number, random: () => number): string {
  const words = line.split(/\s+/);
  const count = Math.max(1, Math.round(words.length * share));
  for (let k = 0; k < count; k++) words[Math.floor(random() * words.length)] = `other${k}x`;
  return words.join(' ');
}

/**
 * Short texts, by SimHash alone (no exact hashing): lines of the corpora of n tokens against themselves with one word
 * changed (a near-duplicate: found?) and with a third of their words changed (not one: matched?), and distinct lines
 * of as many tokens against each other (matched?).
 */
function reportShortTexts(pages: TextPage[]) {
  const random = seeded(5);
  const simhash: Design = { ...S.SKETCH_DESIGN, minTokens: 0 };
  const sketchOf = (text: string) => S.sketchTokens(tokenize(text), simhash);
  const within = (a: string, b: string) => (distance(sketchOf(a), sketchOf(b)) ?? 99) <= K;
  console.log(`\nShort texts by SimHash alone (no exact hashing), within ${K} bits:`);
  for (const [lo, hi] of [
    [2, 3],
    [4, 5],
    [6, 7],
    [8, 11],
    [12, 15],
    [16, 23],
    [24, 31],
    [32, 47],
    [48, 64],
  ] as const) {
    const lines = linesOfSize(pages, lo, hi, 2000);
    const one = lines.filter((l) => within(l, changed(l, 0, random))).length;
    const third = lines.filter((l) => within(l, changed(l, 1 / 3, random))).length;
    const sets = lines.map((l) => S.featureKeys(tokenize(l)));
    const stats = allPairs(lines.map(sketchOf), (i, j) => jaccard(sets[i] ?? new Set(), sets[j] ?? new Set()), K);
    const distinct = stats.close.filter((c) => c.jaccard < SAME_TEXT).length;
    console.log(
      `  ${`${lo}-${hi} tokens`.padEnd(13)} ${String(lines.length).padStart(5)} lines: one word changed found ${pct(one, lines.length).padStart(6)}; a third changed matched ${pct(third, lines.length).padStart(6)}; distinct lines matched ${distinct} of ${stats.pairs.toLocaleString('en')} pairs`,
    );
  }
}

/** Microseconds per page of sketch and templateSketch, median and p99 over the pages (the third run timed). */
function timeSketches(pages: TextPage[]) {
  const time = (f: (p: TextPage) => unknown) => {
    for (let run = 0; run < 2; run++) for (const p of pages) f(p);
    const us = pages.map((p) => {
      const start = performance.now();
      f(p);
      return (performance.now() - start) * 1000;
    });
    us.sort((a, b) => a - b);
    const q = (x: number) => us[Math.min(us.length - 1, Math.floor(x * us.length))]?.toFixed(0);
    return `median ${q(0.5)} µs, p99 ${q(0.99)} µs, max ${us.at(-1)?.toFixed(0)} µs`;
  };
  const sizes = pages.map((p) => p.text.length).sort((a, b) => a - b);
  console.log(`\nTime per page in Node (texts: median ${sizes[sizes.length >> 1]} characters, max ${sizes.at(-1)}):`);
  console.log(`  sketch         ${time((p) => S.sketch(p.text))}`);
  console.log(`  templateSketch ${time((p) => S.templateSketch(p.text, p.url))}`);
}

/**
 * Feature designs compared on the same pages: for each, the closest truly different pair (J < DIFFERENT, any set; J
 * of the chosen design's features) and the closest template sibling; then at thresholds 2, 3 and 4: the siblings and
 * truly different pairs within it, and the share of few-word positives (from every third page) found.
 */
function compareDesigns(pages: TextPage[]) {
  const designs: Design[] = [
    { shingles: [1], weight: 'tf', minTokens: 8 },
    { shingles: [1], weight: 'binary', minTokens: 8 },
    { shingles: [2], weight: 'binary', minTokens: 8 },
    { shingles: [3], weight: 'tf', minTokens: 8 },
    { shingles: [3], weight: 'log', minTokens: 8 },
    { shingles: [3], weight: 'binary', minTokens: 8 },
    { shingles: [4], weight: 'binary', minTokens: 8 },
    { shingles: [1, 3], weight: 'binary', minTokens: 8 },
    { shingles: [2, 4], weight: 'binary', minTokens: 8 },
    ...[16, 32, 64].map((minTokens): Design => ({ shingles: [3], weight: 'binary', minTokens })),
  ];
  const features = pages.map((p) => S.featureKeys(plainTokens(p)));
  const truth = (i: number, j: number) => jaccard(features[i] ?? new Set(), features[j] ?? new Set());
  const pos = positives(pages.filter((_, i) => i % 3 === 0)).filter((p) => p.kind !== 're-sorted');
  console.log('\nFeature designs: the closest truly different pair and template sibling; at thresholds 2, 3 and 4 the');
  console.log('siblings / truly different pairs within it, and the counters, timestamps and sentences added found:');
  for (const design of designs) {
    const { sketches } = sketchPages(pages, plainTokens, design);
    const close = allPairs(sketches, truth, WINDOW).close;
    const closest = (b: string) => String(close.find((c) => band(c) === b)?.distance ?? `>${WINDOW}`).padStart(2);
    const found = scored(pos, (v) => S.sketchTokens(plainTokens(v), design));
    const at = (k: number) => {
      const n = (b: string) => close.filter((c) => band(c) === b && c.distance <= k).length;
      const share = (kind: string) => {
        const these = found.filter((p) => p.kind === kind);
        return pct(these.filter((p) => p.distance !== null && p.distance <= k).length, these.length).padStart(6);
      };
      return `${n('sibling')}/${n('different')} ${share('counter')} ${share('timestamp')} ${share('sentence added')}`;
    };
    const name = `${design.shingles.join('+')}-shingles ${design.weight}, exact < ${design.minTokens}`;
    console.log(
      `  ${name.padEnd(34)} ${closest('different')} ${closest('sibling')} | ${[2, 3, 4].map(at).join(' | ')}`,
    );
  }
}

async function main() {
  if (!existsSync(corpora)) {
    console.log(`measure:similarity: no corpora at ${corpora} (../shared is absent); nothing to measure.`);
    return;
  }
  const pages = await loadPages(corpora, Number(process.env.SAMPLE ?? 300));
  const counts = new Map<string, number>();
  for (const p of pages) counts.set(p.set, (counts.get(p.set) ?? 0) + 1);
  console.log(`measure:similarity: ${pages.length} pages: ${[...counts].map(([s, n]) => `${s} ${n}`).join(', ')}`);
  console.log(
    `design ${JSON.stringify(S.SKETCH_DESIGN)}; J: Jaccard of the texts' word 3-shingles; same text J >= ${SAME_TEXT}, truly different J < ${DIFFERENT}`,
  );
  if (process.env.COMPARE === '1') compareDesigns(pages);
  const plain = measurePlain(pages);
  measureTemplate(pages, plain);
  measureTemplateSynthetic(pages);
  reportShortTexts(pages);
  timeSketches(pages);
}

await main();
