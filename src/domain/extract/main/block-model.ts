/**
 * The learned last decision on the content's blocks (blocks.ts): a logistic model over FEATURES, its weights in
 * block-model.json. Written by `npm run fit:blocks` (scripts/fit-blocks.ts), which fits it on the dev halves of
 * trafilatura's evaluation set and web-content-2025 and prints its figures on both halves of both; edit FEATURES and
 * blocks.ts's featuresAt together, then fit again.
 */

import stored from './block-model.json';

/** What featuresOf measures of a block, in order. */
export const FEATURES = [
  'log characters',
  'link share',
  'ends a sentence',
  'commas per 20 characters',
  'digit share',
  'position among the blocks',
  'text after it (share)',
  'text before it (share)',
  'heading',
  'list or item',
  'paragraph',
  'table cell',
  'short line (< 50, no sentence end)',
  'named as furniture (it or an ancestor in the content)',
  'capital letters share',
  'mean word length / 10',
  'prose before it',
  'prose after it',
  'a date or time',
  'its share of the content',
  'separators (| · • / » ›) per 10 characters',
  'depth below the content root / 10',
  'log links',
  'position x short line',
  'position x no sentence end',
  '(1 - position) x short line',
  'words of sharing, subscribing, comments, rights',
  'link share of the block before',
  'link share of the block after',
  "link share of its parent's blocks",
  'log blocks under its parent',
] as const;

export interface BlockModel {
  bias: number;
  /** Per feature: its weight on the standardized value ((x - mean) / scale). */
  weights: readonly number[];
  mean: readonly number[];
  scale: readonly number[];
  /** Blocks whose odds of being boilerplate are over this are removed. */
  threshold: number;
}

/** No model: every block stays. */
export const NO_MODEL: BlockModel = { bias: 0, weights: [], mean: [], scale: [], threshold: 1 };

/** The model as block-model.json holds it: what it was fit on, and the names of its features. */
interface Stored extends BlockModel {
  fit: string;
  features: readonly string[];
}

/**
 * The stored model, when it was fit on FEATURES as they are (same names, same order, a number for each): else no
 * model, every block staying, until `npm run fit:blocks` is run again.
 */
export function loadModel(stored: Stored): BlockModel {
  const d = FEATURES.length;
  const fits =
    stored.features.length === d &&
    stored.features.every((name, f) => name === FEATURES[f]) &&
    [stored.weights, stored.mean, stored.scale].every((v) => v.length === d && v.every(Number.isFinite)) &&
    Number.isFinite(stored.bias) &&
    Number.isFinite(stored.threshold);
  if (!fits) return NO_MODEL;
  const { bias, weights, mean, scale, threshold } = stored;
  return { bias, weights, mean, scale, threshold };
}

/** The fitted model (block-model.json's `fit` says on what, with what figures). */
export const BLOCK_MODEL: BlockModel = loadModel(stored);
