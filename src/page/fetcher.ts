import { connect } from 'cloudflare:sockets';
import { redactHeaders } from '../domain/credentials/access';
import { classifyFetchError, classifyOriginError, type FetchFailure } from '../domain/fetch/failure';
import type { RecordedRequest } from '../domain/output/warc';
import { concatBytes } from '../domain/util/bytes';
import { SubrequestsSpent } from '../lib/subrequests';
import type { Settings } from '../settings';
import { ALONE, type Connections } from './connections';
import { type Deadline, deadline } from './deadline';

export interface FetchedResponse {
  status: number;
  statusText: string;
  headers: Headers;
  /** The request as the crawler made it (a WARC's request record). */
  request: RecordedRequest;
  /** The body as received after content decoding, at most maxBodyBytes. */
  body: Uint8Array;
  /** When the response headers arrived (epoch ms): the server has surely seen the request by then. */
  respondedAt: number;
}

/** A fetch that got no usable HTTP answer (DNS, refused, timeout, reset, TLS), named by `failure`. */
export class NetworkError extends Error {
  constructor(readonly failure: FetchFailure) {
    super(failure.message);
  }
}
/** The decompressed body exceeded the cap; permanent. `response`: the answer's head, when a response got that far. */
export class BodyTooLargeError extends Error {
  response?: Omit<FetchedResponse, 'body'>;
}

const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

/**
 * Reads a stream to the end, failing as soon as it grows past `limit` bytes. A byte stream (a fetch body) is read into
 * one growing buffer, each read waiting until the buffer is full or the stream ends: a 40 KB page takes one or two
 * reads instead of a read per network chunk, and no copy to join the chunks. Other streams are read chunk by chunk.
 */
export async function readCapped(stream: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array> {
  if (!stream) return new Uint8Array(0);
  let byob: ReadableStreamBYOBReader;
  try {
    byob = stream.getReader({ mode: 'byob' });
  } catch {
    return readChunks(stream.getReader(), limit);
  }
  return readInto(byob, limit);
}

/** The first buffer of a byte stream's read; it doubles as needed, up to limit + 1 (one byte over says "too large"). */
const FIRST_BUFFER_BYTES = 64 * 1024;

async function readInto(reader: ReadableStreamBYOBReader, limit: number): Promise<Uint8Array> {
  let buffer = new Uint8Array(Math.min(FIRST_BUFFER_BYTES, limit + 1));
  let filled = 0;
  for (;;) {
    if (filled === buffer.byteLength) {
      const bigger = new Uint8Array(Math.min(buffer.byteLength * 2, limit + 1));
      bigger.set(buffer);
      buffer = bigger;
    }
    const space = buffer.subarray(filled);
    const { done, value } = await reader.readAtLeast(space.byteLength, space);
    if (value) {
      // The read hands the buffer back (the one passed in is detached).
      buffer = new Uint8Array(value.buffer, 0, value.buffer.byteLength);
      filled += value.byteLength;
    }
    if (filled > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(`body larger than ${limit} bytes`);
    }
    if (done) return buffer.subarray(0, filled);
  }
}

async function readChunks(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(`body larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : concatBytes(chunks, total);
}

/**
 * The body of a response, capped. A body that is not content-encoded and declares its length within the cap
 * is read in one piece (the runtime frames it by Content-Length, so it cannot grow); anything else is
 * streamed and counted, which is what stops compression bombs and endless bodies.
 */
async function readBody(response: Response, limit: number): Promise<Uint8Array> {
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  const encoding = response.headers.get('content-encoding');
  if (Number.isSafeInteger(length) && length <= limit && (!encoding || encoding.trim().toLowerCase() === 'identity')) {
    return new Uint8Array(await response.arrayBuffer());
  }
  return readCapped(response.body, limit);
}

/** How long the TCP probe after a failed fetch may take (see networkFailure). */
const PROBE_TIMEOUT_MS = 2000;

/** Whether a bare TCP connection to host:port opens; undefined when it neither opens nor fails in time. */
async function connects(hostname: string, port: number): Promise<boolean | undefined> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let socket: ReturnType<typeof connect> | undefined;
  try {
    socket = connect({ hostname, port });
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), PROBE_TIMEOUT_MS);
    });
    return await Promise.race([
      socket.opened.then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } catch {
    return undefined;
  } finally {
    if (timer !== null) clearTimeout(timer);
    socket?.close().catch(() => undefined);
  }
}

/**
 * What a fetch of `url` that threw means. Aborted by our timer: a timeout. Otherwise workerd's message alone cannot
 * tell a DNS failure from a TLS one, nor a refusal from a reset (see domain/fetch/failure), so a bare TCP connection
 * to the host is tried once: it fails for a name that does not resolve or a closed port.
 */
export async function networkFailure(
  url: string,
  error: unknown,
  aborted: boolean,
  timeoutMs: number,
): Promise<FetchFailure> {
  const message = error instanceof Error ? error.message : String(error);
  const { hostname, port, protocol } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  const context = {
    aborted,
    host,
    port: Number(port) || (protocol === 'https:' ? 443 : 80),
    tls: protocol === 'https:',
    timeoutMs,
  };
  const first = classifyFetchError(message, context);
  if (first.kind !== 'reset' && first.kind !== 'network') return first;
  return classifyFetchError(message, { ...context, connects: await connects(host, context.port) });
}

/** What a request carries beyond the crawler's own headers; `secret`: those whose values are never recorded. */
export interface RequestHeaders {
  headers: Record<string, string>;
  /** Lower-case names of `headers` that are credentials: recorded (a WARC's request record) with their values redacted. */
  secret?: ReadonlySet<string>;
}

const NONE: RequestHeaders = { headers: {} };

/**
 * One GET, redirects not followed (the crawler schedules each hop as its own task). With `connections`, the request
 * waits for one of the invocation's connections first, and its timeout starts once it has one (see Connections).
 */
export async function fetchOnce(
  url: string,
  settings: Settings,
  extra: RequestHeaders = NONE,
  connections: Connections = ALONE,
): Promise<FetchedResponse> {
  const controller = new AbortController();
  const timing: { timer?: Deadline } = {};
  const timeoutMs = settings.fetchTimeoutMs;
  const headers = { 'user-agent': settings.userAgent, accept: ACCEPT, ...extra.headers };
  const recorded = extra.secret ? redactHeaders(Object.entries(headers), extra.secret) : Object.entries(headers);
  const request: RecordedRequest = { method: 'GET', headers: recorded };
  try {
    let response: Response;
    try {
      response = await connections.limit(() => {
        timing.timer = deadline(timeoutMs, () => controller.abort());
        return connections.fetch(url, {
          redirect: 'manual',
          signal: controller.signal,
          headers,
        });
      });
    } catch (error) {
      // Not sent: the invocation's subrequests are spent (no fault of the site's).
      if (error instanceof SubrequestsSpent) throw error;
      throw new NetworkError(await networkFailure(url, error, controller.signal.aborted, timeoutMs));
    }
    const respondedAt = Date.now();
    const head = { status: response.status, statusText: response.statusText, headers: response.headers, request };
    let body: Uint8Array;
    try {
      body = await readBody(response, settings.maxBodyBytes);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        error.response = { ...head, respondedAt };
        throw error;
      }
      throw new NetworkError(
        controller.signal.aborted
          ? { kind: 'timeout', message: `timeout after ${timeoutMs} ms reading body` }
          : { kind: 'reset', message: `body read failed: ${error instanceof Error ? error.message : String(error)}` },
      );
    }
    // Cloudflare's 530 for an origin it cannot resolve: how a deployed Worker sees a DNS failure.
    const origin =
      response.status === 530
        ? classifyOriginError(530, new TextDecoder().decode(body), new URL(url).hostname)
        : undefined;
    if (origin) throw new NetworkError(origin);
    return { ...head, body, respondedAt };
  } finally {
    timing.timer?.clear();
  }
}

/** Decompresses gzip data (a .xml.gz sitemap), failing past `limit` decompressed bytes. */
export async function gunzipCapped(bytes: Uint8Array, limit: number): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return readCapped(stream, limit);
}
