import { parseRetryAfter } from '../../domain/fetch/classify';
import { PROVIDER_MESSAGE_CHARS } from '../../domain/model/limits';
import { ModelError } from '../../domain/model/types';

/**
 * A provider's error message as we keep and show it: on one line, any secret in it masked (some providers echo part
 * of a bad key), cut to PROVIDER_MESSAGE_CHARS.
 */
export function providerMessage(text: string, secrets: (string | null | undefined)[] = []): string {
  let message = text.replace(/\s+/g, ' ').trim();
  for (const secret of secrets) if (secret) message = message.replaceAll(secret, '***');
  return message.length > PROVIDER_MESSAGE_CHARS ? `${message.slice(0, PROVIDER_MESSAGE_CHARS - 1)}…` : message;
}

/** Retry-After (seconds or an HTTP date) in milliseconds, or null. */
function retryAfterMs(value: string | null, now = Date.now()): number | null {
  const seconds = parseRetryAfter(value, now);
  return seconds === undefined ? null : seconds * 1000;
}

/** The error of an HTTP answer that is not a 2xx: 429 rate_limited, 5xx unavailable, any other refused. */
export function statusError(status: number, headers: Headers, message: string): ModelError {
  const said = message === '' ? '' : `: ${message}`;
  if (status === 429)
    return new ModelError(
      'rate_limited',
      `the model is rate limited (429)${said}`,
      retryAfterMs(headers.get('retry-after')),
    );
  if (status >= 500) return new ModelError('unavailable', `the model endpoint failed (${status})${said}`);
  return new ModelError('refused', `the model endpoint refused the request (${status})${said}`);
}

/** The error of a request that got no HTTP answer: a timeout or a network failure, both unavailable. */
export function networkError(error: unknown, timeoutMs: number): ModelError {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new ModelError('unavailable', `the model endpoint did not answer within ${timeoutMs} ms`);
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new ModelError('unavailable', `the model endpoint could not be reached: ${providerMessage(detail)}`);
}
