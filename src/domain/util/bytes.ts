/** The parts back to back in one new buffer of `total` bytes (their summed length). */
export function concatBytes(
  parts: readonly Uint8Array[],
  total = parts.reduce((sum, p) => sum + p.byteLength, 0),
): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
