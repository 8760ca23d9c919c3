/** Token F1 of an extracted text against a reference text, as bags of lower-cased words (runs of letters or digits). */

const tokens = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

export interface TokenScore {
  precision: number;
  recall: number;
  f1: number;
}

export function tokenF1(got: string, want: string): TokenScore {
  const counts = new Map<string, number>();
  const wantTokens = tokens(want);
  for (const t of wantTokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  const gotTokens = tokens(got);
  let overlap = 0;
  for (const t of gotTokens) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      overlap++;
      counts.set(t, n - 1);
    }
  }
  const wantCount = wantTokens.length;
  const precision = gotTokens.length === 0 ? (wantCount === 0 ? 1 : 0) : overlap / gotTokens.length;
  const recall = wantCount === 0 ? 1 : overlap / wantCount;
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}
