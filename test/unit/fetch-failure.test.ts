import { describe, expect, it } from 'vitest';
import {
  classifyFetchError,
  classifyOriginError,
  type FetchErrorContext,
  type FetchFailureKind,
  isHostUnreachable,
  parseFailureKind,
} from '../../src/domain/fetch/failure';

const INTERNAL = 'internal error; reference = 4v08rqa09p8nr4v97k9al8rf';
const LOST = 'Network connection lost.';
const at = (host: string, port: number, extra: Partial<FetchErrorContext> = {}): FetchErrorContext => ({
  aborted: false,
  host,
  port,
  ...extra,
});

describe('classifyFetchError', () => {
  it.each<[string, string, FetchErrorContext, FetchFailureKind, string]>([
    [
      'workerd, unknown name (probe fails)',
      INTERNAL,
      at('nonexistent-host.invalid', 80, { connects: false }),
      'dns',
      'dns: host not found (nonexistent-host.invalid)',
    ],
    [
      'workerd, unknown name over https',
      INTERNAL,
      at('x.invalid', 443, { tls: true, connects: false }),
      'dns',
      'dns: host not found (x.invalid)',
    ],
    [
      'workerd, failed TLS handshake (probe opens)',
      INTERNAL,
      at('127.0.0.1', 8443, { tls: true, connects: true }),
      'tls',
      'tls: handshake failed (127.0.0.1:8443)',
    ],
    [
      'workerd, internal error with no probe answer',
      INTERNAL,
      at('a.test', 80),
      'network',
      `network error: ${INTERNAL}`,
    ],
    [
      'workerd, closed port (probe fails)',
      LOST,
      at('127.0.0.1', 1, { connects: false }),
      'refused',
      'refused: connection refused (127.0.0.1:1)',
    ],
    [
      'workerd, reset (probe opens)',
      LOST,
      at('127.0.0.1', 8000, { connects: true }),
      'reset',
      'reset: connection lost (127.0.0.1:8000)',
    ],
    ['workerd, lost with no probe answer', LOST, at('a.test', 80), 'reset', 'reset: connection lost (a.test:80)'],
    [
      'our timer aborted it',
      'The operation was aborted',
      at('a.test', 80, { aborted: true, timeoutMs: 15000 }),
      'timeout',
      'timeout after 15000 ms',
    ],
    ['Node-style ENOTFOUND', 'getaddrinfo ENOTFOUND x.test', at('x.test', 80), 'dns', 'dns: host not found (x.test)'],
    [
      'Node-style ECONNREFUSED',
      'connect ECONNREFUSED 10.0.0.1:81',
      at('10.0.0.1', 81),
      'refused',
      'refused: connection refused (10.0.0.1:81)',
    ],
    [
      'certificate error',
      'TLS peer certificate is not trusted',
      at('a.test', 443),
      'tls',
      'tls: handshake failed (a.test:443)',
    ],
    ['timed out, not by us', 'connect ETIMEDOUT', at('a.test', 80), 'timeout', 'timeout'],
    ['IPv6 literal host', LOST, at('::1', 9, { connects: false }), 'refused', 'refused: connection refused ([::1]:9)'],
    ['anything else', 'boom', at('a.test', 80), 'network', 'network error: boom'],
  ])('%s', (_name, message, context, kind, text) => {
    expect(classifyFetchError(message, context)).toEqual({ kind, message: text });
  });
});

describe('classifyOriginError', () => {
  it.each<[string, number, string, FetchFailureKind | undefined]>([
    ['530 with error code 1016 (deployed Worker, unknown name)', 530, 'error code: 1016', 'dns'],
    ['530 Origin DNS error page', 530, '<title>Origin DNS error | x.test | Cloudflare</title>', 'dns'],
    ['530 with another code', 530, 'error code: 1033', undefined],
    ['521 is an HTTP answer of a fronted site', 521, 'error code: 521', undefined],
    ['200', 200, 'error code: 1016', undefined],
  ])('%s', (_name, status, body, kind) => {
    expect(classifyOriginError(status, body, 'x.test')?.kind).toBe(kind);
  });
});

describe('helpers', () => {
  it.each<[string, FetchFailureKind, boolean]>([
    ['dns: the host cannot be reached', 'dns', true],
    ['refused: the host cannot be reached', 'refused', true],
    ['timeout: may pass', 'timeout', false],
    ['reset: may pass', 'reset', false],
    ['tls: not the host being absent', 'tls', false],
    ['network: unknown', 'network', false],
  ])('isHostUnreachable, %s', (_name, kind, unreachable) => {
    expect(isHostUnreachable({ kind, message: kind })).toBe(unreachable);
  });
  it.each<[string, string | null, FetchFailureKind | undefined]>([
    ['a stored kind', 'refused', 'refused'],
    ['null', null, undefined],
    ['an unknown word', 'gone', undefined],
  ])('parseFailureKind, %s', (_name, value, kind) => {
    expect(parseFailureKind(value)).toBe(kind);
  });
});
