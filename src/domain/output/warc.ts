/**
 * WARC 1.1 records (ISO 28500:2017), built in memory: a warcinfo record describing the export; for each stored page
 * a request record (the request as the crawler made it) and a response record (what the server sent: its status line
 * and headers as received, the body as stored), or, where the exchange was not recorded, a response whose HTTP head is
 * rebuilt from what the crawl recorded (status, content type, validators); and for a page rendered in a browser a
 * conversion record holding the rendered DOM, referring to its response. Each record is gzipped on its own by the
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

/** An HTTP head's text as bytes: header values are byte strings (ISO-8859-1), not UTF-8. */
function latin1(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out[i] = code < 256 ? code : 0x3f;
  }
  return out;
}

/** An HTTP/1.1 message: its start line, headers, a blank line, the payload. */
function httpMessage(startLine: string, headers: WarcHeaders, payload: Uint8Array): Uint8Array {
  const lines = [startLine, ...headers.map(([k, v]) => `${k}: ${v.replace(/[\r\n]+/g, ' ')}`)];
  const head = latin1(lines.join(CRLF) + CRLF + CRLF);
  const out = new Uint8Array(head.byteLength + payload.byteLength);
  out.set(head, 0);
  out.set(payload, head.byteLength);
  return out;
}

/** An HTTP/1.1 response message: status line, the headers given, Content-Length, the payload. */
export function httpResponseBlock(
  status: number,
  headers: WarcHeaders,
  payload: Uint8Array,
  statusText = REASONS[status] ?? '',
): Uint8Array {
  const statusLine = `HTTP/1.1 ${status} ${statusText}`.trimEnd();
  return httpMessage(statusLine, [...headers, ['Content-Length', String(payload.byteLength)]], payload);
}

/**
 * The response's headers as received, made true of the payload as stored: a fetch hands the body over decoded and
 * de-chunked, so Content-Encoding and Transfer-Encoding as received are kept as X-Crawler-Content-Encoding and
 * X-Crawler-Transfer-Encoding, and a Content-Length other than the payload's as X-Crawler-Content-Length
 * (httpResponseBlock adds the payload's).
 */
export function payloadHeaders(headers: WarcHeaders, payloadBytes: number): WarcHeaders {
  const renamed: WarcHeaders = [];
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (lower === 'content-encoding' || lower === 'transfer-encoding') renamed.push([`x-crawler-${lower}`, value]);
    else if (lower !== 'content-length') renamed.push([name, value]);
    else if (value.trim() !== String(payloadBytes)) renamed.push(['x-crawler-content-length', value]);
  }
  return renamed;
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
/** A new WARC-Record-ID. */
export const warcRecordId = () => `<urn:uuid:${crypto.randomUUID()}>`;

export function warcinfoRecord(filename: string, fields: Record<string, string>, now: number): Uint8Array {
  const block = encoder.encode(
    Object.entries(fields)
      .map(([k, v]) => `${k}: ${v}${CRLF}`)
      .join(''),
  );
  return warcRecord(
    [
      ['WARC-Type', 'warcinfo'],
      ['WARC-Record-ID', warcRecordId()],
      ['WARC-Date', warcDate(now)],
      ['WARC-Filename', filename],
      ['Content-Type', 'application/warc-fields'],
    ],
    block,
  );
}

/** A fetch's request as the crawler made it (the runtime may add connection headers, such as Accept-Encoding). */
export interface RecordedRequest {
  method: string;
  headers: WarcHeaders;
}

/** A fetch's response head as received (header names as the runtime gives them: lowercased). */
interface RecordedResponse {
  status: number;
  statusText: string;
  headers: WarcHeaders;
}

/** What a fetch sent and what came back, recorded beside the body (storage/exchange.ts). */
export interface HttpExchange {
  request: RecordedRequest;
  response: RecordedResponse;
}

/** The value of a header (the first of that name, names compared in any case), or null. */
export function headerValue(headers: WarcHeaders, name: string): string | null {
  const lower = name.toLowerCase();
  return headers.find(([k]) => k.toLowerCase() === lower)?.[1] ?? null;
}

export interface StoredResponse {
  url: string;
  status: number;
  contentType: string | null;
  etag: string | null;
  lastModified: string | null;
  fetchedAt: number;
  body: Uint8Array;
  /** The response head as received; absent: one is rebuilt from the status, content type and validators above. */
  response?: RecordedResponse | null;
  /** The record's WARC-Record-ID (a request or conversion record refers to it); absent: a new one. */
  id?: string;
}

/** The HTTP block of a stored response: its head as received when recorded, else rebuilt. */
function responseBlock(page: StoredResponse): Uint8Array {
  if (page.response) {
    const { status, statusText, headers } = page.response;
    return httpResponseBlock(status, payloadHeaders(headers, page.body.byteLength), page.body, statusText);
  }
  const headers: WarcHeaders = [];
  if (page.contentType) headers.push(['Content-Type', page.contentType]);
  if (page.etag) headers.push(['ETag', page.etag]);
  if (page.lastModified) headers.push(['Last-Modified', page.lastModified]);
  return httpResponseBlock(page.status, headers, page.body);
}

export async function responseRecord(page: StoredResponse): Promise<Uint8Array> {
  const block = responseBlock(page);
  const [blockDigest, payloadDigest] = await Promise.all([sha1Digest(block), sha1Digest(page.body)]);
  return warcRecord(
    [
      ['WARC-Type', 'response'],
      ['WARC-Record-ID', page.id ?? warcRecordId()],
      ['WARC-Date', warcDate(page.fetchedAt)],
      ['WARC-Target-URI', page.url],
      ['WARC-Block-Digest', blockDigest],
      ['WARC-Payload-Digest', payloadDigest],
      ['Content-Type', 'application/http; msgtype=response'],
    ],
    block,
  );
}

/**
 * The request of a response record (`concurrentTo`, its WARC-Record-ID): the request line, Host, and the headers the
 * crawler set, as HTTP/1.1 puts them on the wire.
 */
export async function requestRecord(request: {
  url: string;
  fetchedAt: number;
  recorded: RecordedRequest;
  concurrentTo: string;
}): Promise<Uint8Array> {
  const url = new URL(request.url);
  const { method, headers } = request.recorded;
  const withHost: WarcHeaders = headers.some(([k]) => k.toLowerCase() === 'host')
    ? headers
    : [['host', url.host], ...headers];
  const block = httpMessage(`${method} ${url.pathname}${url.search} HTTP/1.1`, withHost, new Uint8Array(0));
  return warcRecord(
    [
      ['WARC-Type', 'request'],
      ['WARC-Record-ID', warcRecordId()],
      ['WARC-Date', warcDate(request.fetchedAt)],
      ['WARC-Target-URI', request.url],
      ['WARC-Concurrent-To', request.concurrentTo],
      ['WARC-Block-Digest', await sha1Digest(block)],
      ['Content-Type', 'application/http; msgtype=request'],
    ],
    block,
  );
}

/**
 * What the crawler made of a response (a page's DOM as a browser rendered it): a conversion record of the same
 * target URI, referring to the response it was made from (`refersTo`; none when that response is not in the file).
 */
export async function conversionRecord(conversion: {
  url: string;
  fetchedAt: number;
  contentType: string;
  body: Uint8Array;
  refersTo: string | null;
}): Promise<Uint8Array> {
  const digest = await sha1Digest(conversion.body);
  const refersTo: WarcHeaders = conversion.refersTo ? [['WARC-Refers-To', conversion.refersTo]] : [];
  return warcRecord(
    [
      ['WARC-Type', 'conversion'],
      ['WARC-Record-ID', warcRecordId()],
      ['WARC-Date', warcDate(conversion.fetchedAt)],
      ['WARC-Target-URI', conversion.url],
      ...refersTo,
      ['WARC-Block-Digest', digest],
      ['WARC-Payload-Digest', digest],
      ['Content-Type', conversion.contentType],
    ],
    conversion.body,
  );
}
