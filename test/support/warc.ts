import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { expect } from 'vitest';

/** One WARC record: its named fields and its block. */
export interface WarcRecord {
  headers: Map<string, string>;
  block: Uint8Array;
}

const latin = new TextDecoder('latin1');

/** Splits an uncompressed WARC file into records, checking each Content-Length and the CRLF CRLF after it. */
function parseWarc(bytes: Uint8Array): WarcRecord[] {
  const records: WarcRecord[] = [];
  let at = 0;
  while (at < bytes.length) {
    const headEnd = latin.decode(bytes.subarray(at, at + 64 * 1024)).indexOf('\r\n\r\n');
    const lines = latin.decode(bytes.subarray(at, at + headEnd)).split('\r\n');
    expect(lines[0]).toBe('WARC/1.1');
    const headers = new Map(
      lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)] as [string, string]),
    );
    const length = Number(headers.get('Content-Length'));
    expect(Number.isSafeInteger(length), `Content-Length ${headers.get('Content-Length')}`).toBe(true);
    const start = at + headEnd + 4;
    expect(start + length, 'the block lies within the file').toBeLessThanOrEqual(bytes.length);
    records.push({ headers, block: bytes.subarray(start, start + length) });
    expect(latin.decode(bytes.subarray(start + length, start + length + 4))).toBe('\r\n\r\n');
    at = start + length + 4;
  }
  return records;
}

/** A .warc.gz (one gzip member per record) read into its records. */
export const parseWarcGz = (gz: Uint8Array): WarcRecord[] => parseWarc(new Uint8Array(gunzipSync(gz)));

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** `sha1:` and the base32 of the SHA-1 of `bytes`, computed here (not with the code under test). */
function sha1Of(bytes: Uint8Array): string {
  const digest = createHash('sha1').update(bytes).digest();
  let bits = '';
  for (const byte of digest) bits += byte.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += BASE32[Number.parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return `sha1:${out}`;
}

/** An HTTP message block split into its head (start line and headers, as text) and its payload. */
export function httpMessage(block: Uint8Array): {
  startLine: string;
  headers: [string, string][];
  payload: Uint8Array;
} {
  const split = latin.decode(block).indexOf('\r\n\r\n');
  expect(split, 'an HTTP head ends with CRLF CRLF').toBeGreaterThan(0);
  const [startLine = '', ...lines] = latin.decode(block.subarray(0, split)).split('\r\n');
  const headers = lines.map((l): [string, string] => [
    l.slice(0, l.indexOf(':')).toLowerCase(),
    l.slice(l.indexOf(':') + 1).trim(),
  ]);
  return { startLine, headers, payload: block.subarray(split + 4) };
}

const RECORD_ID = /^<urn:uuid:[0-9a-f-]{36}>$/;
const WARC_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/**
 * What every record of a WARC 1.1 file must hold: a unique record ID, a date, a type; a block digest that is the
 * block's; for request and response records an HTTP message whose Content-Length (a response's) is its payload's
 * and whose payload digest is the payload's; and every record another refers to (WARC-Refers-To,
 * WARC-Concurrent-To, WARC-Warcinfo-ID) in the file.
 */
export function checkWarcStructure(records: readonly WarcRecord[]): void {
  const ids = records.map((r) => r.headers.get('WARC-Record-ID') ?? '');
  for (const id of ids) expect(id).toMatch(RECORD_ID);
  expect(new Set(ids).size, 'record IDs are unique').toBe(ids.length);
  for (const record of records) {
    const h = record.headers;
    const what = `${h.get('WARC-Type')} ${h.get('WARC-Target-URI') ?? ''}`;
    expect(h.get('WARC-Date'), what).toMatch(WARC_DATE);
    expect(h.get('Content-Type'), what).toBeTruthy();
    const blockDigest = h.get('WARC-Block-Digest');
    if (blockDigest !== undefined) expect(blockDigest, what).toBe(sha1Of(record.block));
    const type = h.get('WARC-Type');
    if (type === 'request' || type === 'response') {
      expect(h.get('Content-Type'), what).toBe(`application/http; msgtype=${type}`);
      const message = httpMessage(record.block);
      if (type === 'response') {
        expect(message.startLine, what).toMatch(/^HTTP\/1\.1 \d{3}( .*)?$/);
        const lengths = message.headers.filter(([k]) => k === 'content-length').map(([, v]) => Number(v));
        expect(lengths, what).toEqual([message.payload.byteLength]);
        expect(h.get('WARC-Payload-Digest'), what).toBe(sha1Of(message.payload));
      } else expect(message.startLine, what).toMatch(/^GET \S+ HTTP\/1\.1$/);
    }
    for (const field of ['WARC-Refers-To', 'WARC-Concurrent-To', 'WARC-Warcinfo-ID']) {
      const target = h.get(field);
      if (target !== undefined) expect(ids, `${what}: ${field} ${target}`).toContain(target);
    }
  }
}
