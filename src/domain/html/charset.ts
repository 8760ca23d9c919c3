/**
 * The character encoding of an HTML document, found in the WHATWG order: a byte order mark, then the
 * Content-Type charset, then a <meta charset> or <meta http-equiv="content-type"> in the first 1024 bytes, then
 * a default. The default is UTF-8 when the bytes are valid UTF-8 (as browsers' detectors find it) and
 * windows-1252 otherwise.
 */

/** The charset parameter of a Content-Type header, lower-cased, if any. */
export function charsetOf(contentType: string | null): string | undefined {
  const m = contentType ? /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType) : null;
  return m?.[1]?.toLowerCase();
}

/** The encoding a label names, as TextDecoder knows it; undefined for labels it does not know. */
function known(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}

function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/** The encoding a <meta> in the first 1024 bytes declares (comments skipped; UTF-16 declared in ASCII means UTF-8). */
export function prescanMeta(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('windows-1252').decode(bytes.subarray(0, 1024)).replace(/<!--[\s\S]*?(-->|$)/g, '');
  for (const [tag] of head.matchAll(/<meta\b[^>]*>?/gi)) {
    const direct = /\bcharset\s*=\s*["']?\s*([^"'\s/>;]+)/i.exec(tag);
    const equiv = /http-equiv\s*=\s*["']?content-type/i.test(tag)
      ? /\bcontent\s*=\s*["']?[^"']*charset\s*=\s*["']?([^"'\s;>]+)/i.exec(tag)
      : null;
    const label = known((direct ?? equiv)?.[1]);
    if (label) return label.startsWith('utf-16') ? 'utf-8' : label === 'x-user-defined' ? 'windows-1252' : label;
  }
  return undefined;
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export type EncodingSource = 'bom' | 'content-type' | 'meta' | 'detected' | 'default';

export function sniffEncoding(
  bytes: Uint8Array,
  contentType: string | null,
): { encoding: string; source: EncodingSource } {
  const bom = bomEncoding(bytes);
  if (bom) return { encoding: bom, source: 'bom' };
  const declared = known(charsetOf(contentType));
  if (declared) return { encoding: declared, source: 'content-type' };
  const meta = prescanMeta(bytes);
  if (meta) return { encoding: meta, source: 'meta' };
  return isUtf8(bytes) ? { encoding: 'utf-8', source: 'detected' } : { encoding: 'windows-1252', source: 'default' };
}

/** The document as text, decoded in its encoding (a BOM is dropped). */
export function decodeHtml(bytes: Uint8Array, contentType: string | null): { text: string; encoding: string } {
  const { encoding } = sniffEncoding(bytes, contentType);
  return { text: new TextDecoder(encoding).decode(bytes), encoding };
}
