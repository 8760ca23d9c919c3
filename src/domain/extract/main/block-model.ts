/**
 * The learned last decision on the content's blocks (blocks.ts): a logistic model over FEATURES. Written by
 * `npm run fit:blocks` (scripts/fit-blocks.ts), which fits it on the dev half of trafilatura's evaluation set and
 * prints its figures; edit FEATURES and blocks.ts's featuresOf together, then fit again.
 */

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

/**
 * Fit by `npm run fit:blocks` on 1347 labelled blocks of trafilatura's dev half; threshold chosen on the dev
 * half. Dev F1 0.910 -> P 0.914 R 0.916 F1 0.915; held-out (never used to fit or choose)
 * 0.914 -> P 0.909 R 0.928 F1 0.919.
 */
export const BLOCK_MODEL: BlockModel = {
  bias: -2.803,
  weights: [
    -0.661, 0.1701, -0.3244, -0.2551, 0.0488, 0.5323, 0.05, 0.1689, -0.1738, -0.1707, -0.4818, -0.2517, -0.0595,
    -0.0151, 0.2765, -0.0104, -0.2235, -0.2027, 0.1089, -0.4067, 0.088, 0.1979, 0.3675, -0.0306, -0.1115, -0.0696,
  ],
  mean: [
    5.5687, 0.0337, 0.8233, 0.1465, 0.0119, 0.4779, 0.481, 0.3828, 0.0883, 0.0453, 0.7736, 0.0126, 0.0861, 0.1143,
    0.0716, 0.6872, 0.5397, 0.5271, 0.0186, 0.1362, 0.0082, 0.3174, 0.2449, 0.0446, 0.0912, 0.0416,
  ],
  scale: [
    1.1841, 0.1209, 0.3814, 0.1422, 0.0368, 0.3384, 0.3485, 0.341, 0.2838, 0.2079, 0.4185, 0.1116, 0.2805, 0.3182,
    0.0762, 0.1084, 0.4984, 0.4993, 0.135, 0.1844, 0.051, 0.2411, 0.5378, 0.1722, 0.2433, 0.164,
  ],
  threshold: 0.3,
};
