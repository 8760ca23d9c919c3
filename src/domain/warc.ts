/**
 * WARC 1.1 records (ISO 28500:2017), built in memory: a warcinfo record describing the export, and one
 * response record per stored body, its HTTP block rebuilt from what the crawl recorded (status, content
 * type, validators) since raw response headers are not kept. Each record is gzipped on its own by the
 * caller, as WARC readers expect of a .warc.gz.
 */

const encoder = new TextEncoder();
const CRLF = '\r\n';

export type WarcHeaders = [name: string, value: string][];

/** One record: version line, named fields, Content-Length, a blank line, the block, two CRLFs. */
export function warcRecord(headers: WarcHeaders, block: Uint8Array): Uint8Array {
  const head = encoder.encode(
    `WARC/1.1${CRLF}${headers.map(([k, v]) => `${k}: ${v.replace(/[\r\n]+/g, ' ')}${CRLF}`).join('')}Content-Length: ${block.byteLength}${CRLF}${CRLF}`,
  );
  const tail = encoder.encode(CRLF + CRLF);
  const out = new Uint8Array(head.byteLength + block.byteLength + tail.byteLength);
  out.set(head, 0);
  out.set(block, head.byteLength);
  out.set(tail, head.byteLength + block.byteLength);
  return out;
}

const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  203: 'Non-Authoritative Information',
  204: 'No Content',
  206: 'Partial Content',
};

/** An HTTP/1.1 response message: status line, the headers given, Content-Length, the payload. */
export function httpResponseBlock(status: number, headers: WarcHeaders, payload: Uint8Array): Uint8Array {
  const lines = [
    `HTTP/1.1 ${status} ${REASONS[status] ?? ''}`.trimEnd(),
    ...headers.map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${payload.byteLength}`,
  ];
  const head = encoder.encode(lines.join(CRLF) + CRLF + CRLF);
  const out = new Uint8Array(head.byteLength + payload.byteLength);
  out.set(head, 0);
  out.set(payload, head.byteLength);
  return out;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, as WARC digests conventionally spell SHA-1. */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
}

export async function sha1Digest(bytes: Uint8Array): Promise<string> {
  return `sha1:${base32(new Uint8Array(await crypto.subtle.digest('SHA-1', bytes)))}`;
}

export const warcDate = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const recordId = () => `<urn:uuid:${crypto.randomUUID()}>`;

export function warcinfoRecord(filename: string, fields: Record<string, string>, now: number): Uint8Array {
  const block = encoder.encode(
    Object.entries(fields)
      .map(([k, v]) => `${k}: ${v}${CRLF}`)
      .join(''),
  );
  return warcRecord(
    [
      ['WARC-Type', 'warcinfo'],
      ['WARC-Record-ID', recordId()],
      ['WARC-Date', warcDate(now)],
      ['WARC-Filename', filename],
      ['Content-Type', 'application/warc-fields'],
    ],
    block,
  );
}

export interface StoredResponse {
  url: string;
  status: number;
  contentType: string | null;
  etag: string | null;
  lastModified: string | null;
  fetchedAt: number;
  body: Uint8Array;
}

export async function responseRecord(page: StoredResponse): Promise<Uint8Array> {
  const headers: WarcHeaders = [];
  if (page.contentType) headers.push(['Content-Type', page.contentType]);
  if (page.etag) headers.push(['ETag', page.etag]);
  if (page.lastModified) headers.push(['Last-Modified', page.lastModified]);
  const block = httpResponseBlock(page.status, headers, page.body);
  const [blockDigest, payloadDigest] = await Promise.all([sha1Digest(block), sha1Digest(page.body)]);
  return warcRecord(
    [
      ['WARC-Type', 'response'],
      ['WARC-Record-ID', recordId()],
      ['WARC-Date', warcDate(page.fetchedAt)],
      ['WARC-Target-URI', page.url],
      ['WARC-Block-Digest', blockDigest],
      ['WARC-Payload-Digest', payloadDigest],
      ['Content-Type', 'application/http; msgtype=response'],
    ],
    block,
  );
}
