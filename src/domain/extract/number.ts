/**
 * A number as pages write it: "$1,299.00" -> 1299, "1.299,00 €" -> 1299, "-3.5%" -> -3.5, "12 345" -> 12345.
 * The last separator followed by other than exactly three digits is the decimal one; the rest group thousands.
 * Null when the text holds no number.
 */
export function parseNumber(text: string): number | null {
  const match = /[-−]?\d[\d\s.,'’\u00a0\u202f]*/.exec(text);
  if (!match) return null;
  const negative = /^[-−]/.test(match[0]);
  const digits = match[0]
    .replace(/^[-−]/, '')
    .replace(/[\s'’\u00a0\u202f]/g, '')
    .replace(/[.,]+$/, '');
  const separators = [...digits.matchAll(/[.,]/g)];
  const last = separators.at(-1);
  let normalized = digits.replace(/[.,]/g, '');
  if (last?.index !== undefined) {
    const after = digits.length - last.index - 1;
    const kinds = new Set(separators.map((s) => s[0]));
    // Only one kind of separator, followed by three digits, and repeated ("1.234.567") or a comma ("1,299"): grouping.
    const grouping = after === 3 && kinds.size === 1 && (separators.length > 1 || last[0] === ',');
    if (!grouping) normalized = `${digits.slice(0, last.index).replace(/[.,]/g, '')}.${digits.slice(last.index + 1)}`;
  }
  const value = Number(normalized);
  if (!Number.isFinite(value)) return null;
  return negative ? -value : value;
}
