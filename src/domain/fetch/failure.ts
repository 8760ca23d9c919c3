/**
 * The taxonomy of fetches that got no HTTP answer: what a thrown fetch() error (or Cloudflare's own 530 answer for an
 * origin it cannot resolve) means. Pure: the fetcher gathers the evidence, this names it.
 *
 * What workerd tells Worker code (measured, see docs/crawling.md "Unreachable hosts"): a name that does not resolve
 * and a TLS handshake that fails both throw "internal error; reference = …"; a refused connection and a connection
 * reset both throw "Network connection lost."; a timeout is our own abort. So the message alone cannot tell a DNS
 * failure from a TLS one, nor a refusal from a reset: the fetcher then tries a bare TCP connection to the host
 * (`connects`), which fails for an unknown name or a closed port and succeeds for a reset or a TLS failure.
 */
export type FetchFailureKind = 'dns' | 'refused' | 'timeout' | 'reset' | 'tls' | 'network';

export interface FetchFailure {
  kind: FetchFailureKind;
  /** Human-readable, starting with the kind's own words: "dns: host not found (x.invalid)". */
  message: string;
}

export interface FetchErrorContext {
  /** The request was aborted by our own timer. */
  aborted: boolean;
  /** The host name of the URL (no port, no brackets). */
  host: string;
  /** The port connected to (the scheme's default when the URL names none). */
  port?: number;
  /** The URL is https (a handshake failure is possible). */
  tls?: boolean;
  /** The timeout that aborted it, for the message. */
  timeoutMs?: number;
  /** Whether a bare TCP connection to host:port succeeded after the failure; undefined when not known. */
  connects?: boolean;
}

const INTERNAL = /^internal error\b/i;
const DNS = /ENOTFOUND|EAI_AGAIN|getaddrinfo|lookup address|name or service not known|name not resolved|dns/i;
const REFUSED = /ECONNREFUSED|connection refused/i;
const LOST = /network connection lost|ECONNRESET|connection reset|socket hang up|connection closed/i;
const TLS = /\btls\b|\bssl\b|certificate|handshake/i;
const TIMEOUT = /ETIMEDOUT|timed out|timeout/i;

function failure(kind: FetchFailureKind, context: FetchErrorContext, detail = ''): FetchFailure {
  const where =
    context.port === undefined
      ? context.host
      : `${context.host.includes(':') ? `[${context.host}]` : context.host}:${context.port}`;
  switch (kind) {
    case 'dns':
      return { kind, message: `dns: host not found (${context.host})` };
    case 'refused':
      return { kind, message: `refused: connection refused (${where})` };
    case 'reset':
      return { kind, message: `reset: connection lost (${where})` };
    case 'tls':
      return { kind, message: `tls: handshake failed (${where})` };
    case 'timeout':
      return { kind, message: context.timeoutMs === undefined ? 'timeout' : `timeout after ${context.timeoutMs} ms` };
    case 'network':
      return { kind, message: `network error: ${detail}` };
  }
}

const KINDS: readonly FetchFailureKind[] = ['dns', 'refused', 'timeout', 'reset', 'tls', 'network'];

/** A failure kind read back from storage, or undefined for anything else. */
export function parseFailureKind(value: string | null): FetchFailureKind | undefined {
  return KINDS.find((kind) => kind === value);
}

/** What a fetch() that threw `message` means. */
export function classifyFetchError(message: string, context: FetchErrorContext): FetchFailure {
  if (context.aborted) return failure('timeout', context);
  if (DNS.test(message)) return failure('dns', context);
  if (REFUSED.test(message)) return failure('refused', context);
  if (LOST.test(message)) return failure(context.connects === false ? 'refused' : 'reset', context);
  if (INTERNAL.test(message)) {
    // workerd's words for a name that does not resolve, and for a failed TLS handshake: a host that takes a TCP
    // connection has a name.
    if (context.connects === false) return failure('dns', context);
    if (context.connects === true && context.tls) return failure('tls', context);
    return failure('network', context, message);
  }
  if (TLS.test(message)) return failure('tls', context);
  if (TIMEOUT.test(message)) return failure('timeout', context);
  return failure('network', context, message);
}

/**
 * Cloudflare's answer for an origin it cannot reach, when a deployed Worker fetches a host: 530 with "error code:
 * 1016" (Origin DNS error) in its body. Other 5xx, the 52x of a Cloudflare-fronted site included, are HTTP answers of
 * the site and are left to the HTTP taxonomy (retried).
 */
export function classifyOriginError(status: number, body: string, host: string): FetchFailure | undefined {
  if (status !== 530) return undefined;
  if (/\b1016\b|origin dns error/i.test(body)) return failure('dns', { aborted: false, host });
  return undefined;
}

/** A failure that says the host itself cannot be reached (no name, nothing listening): retrying soon will not help. */
export function isHostUnreachable(failure: FetchFailure | undefined): failure is FetchFailure {
  return failure?.kind === 'dns' || failure?.kind === 'refused';
}
