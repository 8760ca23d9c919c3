import { describe, expect, it } from 'vitest';
import { reasonHead, reasonKind } from '../../src/domain/crawl/reasons';

describe('reason kinds', () => {
  it('cut a reason before its variable part', () => {
    expect(reasonHead('redirect 301 to https://a.test/x: y')).toBe('redirect 301');
    expect(reasonHead('network error: connection reset')).toBe('network error');
    expect(reasonHead('http 404')).toBe('http 404');
  });

  it('name every reason the crawler gives', () => {
    const kinds: [string, string][] = [
      ['redirect 301 to https://a.test/x', 'redirect'],
      ['redirect 302 to https://b.test/y, out of scope', 'redirect'],
      ['redirect to a non-http(s) URL: file:///etc/passwd', 'redirect'],
      ['too many redirects (more than 5)', 'too many redirects'],
      ['http 302 without Location', 'redirect without Location'],
      ['blocked by robots.txt', 'blocked by robots.txt'],
      ['blocked: private network address', 'private address'],
      ['robots.txt answered http 503', 'robots.txt unreachable'],
      ['robots.txt timed out', 'robots.txt unreachable'],
      ['robots.txt unreachable: reset', 'robots.txt unreachable'],
      ['timeout after 3000 ms', 'timeout'],
      ['timeout after 3000 ms reading body', 'timeout'],
      ['network error: reset', 'network error'],
      ['dns: host not found (x.invalid)', 'dns error'],
      ['refused: connection refused (127.0.0.1:1)', 'connection refused'],
      ['reset: connection lost (127.0.0.1:80)', 'connection reset'],
      ['tls: handshake failed (a.test:443)', 'tls error'],
      ['body read failed: reset', 'network error'],
      ['body larger than 10485760 bytes', 'body too large'],
      ['sitemap: body larger than 10 bytes', 'unreadable sitemap'],
      ['dead-lettered: retries exhausted', 'retries exhausted'],
      ['http 404', 'http 404'],
      ['http 503', 'http 503'],
      ['cancelled', 'cancelled'],
    ];
    for (const [reason, kind] of kinds) expect(reasonKind(reason), reason).toBe(kind);
  });

  it('give the same kind for a reason and for its head (what SQL groups by)', () => {
    for (const reason of [
      'redirect 301 to https://a.test/',
      'blocked: private network address',
      'timeout after 5 ms',
      'http 410',
    ]) {
      expect(reasonKind(reasonHead(reason))).toBe(reasonKind(reason));
    }
  });
});
