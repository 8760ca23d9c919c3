/**
 * A weighted logistic regression for fit:blocks: features standardized (mean, scale), L2 on the weights, full-batch
 * gradient descent from zero for a fixed number of steps, so the same rows always give the same model.
 */

export interface Logistic {
  bias: number;
  weights: number[];
  mean: number[];
  scale: number[];
}

export interface Rows {
  x: number[][];
  /** 1 or 0 per row. */
  y: number[];
  /** Each row's weight in the loss. */
  w: number[];
}

function standardize(x: number[][], d: number): { mean: number[]; scale: number[]; z: number[][] } {
  const n = x.length || 1;
  const mean = Array.from({ length: d }, (_, f) => x.reduce((s, r) => s + (r[f] ?? 0), 0) / n);
  const scale = mean.map((m, f) => Math.sqrt(x.reduce((s, r) => s + ((r[f] ?? 0) - m) ** 2, 0) / n) || 1);
  const z = x.map((r) => mean.map((m, f) => ((r[f] ?? 0) - m) / (scale[f] ?? 1)));
  return { mean, scale, z };
}

export function fitLogistic(rows: Rows, d: number, steps = 3000, rate = 0.5, l2 = 0.003): Logistic {
  const { mean, scale, z } = standardize(rows.x, d);
  const total = rows.w.reduce((a, b) => a + b, 0) || 1;
  const weights = new Float64Array(d);
  const grad = new Float64Array(d);
  let bias = 0;
  for (let step = 0; step < steps; step++) {
    grad.fill(0);
    let gradBias = 0;
    for (let i = 0; i < z.length; i++) {
      const row = z[i] ?? [];
      let s = bias;
      for (let f = 0; f < d; f++) s += (row[f] ?? 0) * (weights[f] ?? 0);
      const error = ((rows.w[i] ?? 0) * (1 / (1 + Math.exp(-s)) - (rows.y[i] ?? 0))) / total;
      gradBias += error;
      for (let f = 0; f < d; f++) grad[f] = (grad[f] ?? 0) + error * (row[f] ?? 0);
    }
    bias -= rate * gradBias;
    for (let f = 0; f < d; f++) weights[f] = (weights[f] ?? 0) - rate * ((grad[f] ?? 0) + l2 * (weights[f] ?? 0));
  }
  return { bias, weights: [...weights], mean, scale };
}
