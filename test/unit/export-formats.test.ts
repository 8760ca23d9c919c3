import { describe, expect, it } from 'vitest';
import { csvField, csvRow } from '../../src/domain/csv';
import { base32, httpResponseBlock, responseRecord, sha1Digest, warcRecord } from '../../src/domain/warc';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('csv', () => {
  it('quotes fields with commas, quotes and line breaks, and leaves the rest alone', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(404)).toBe('404');
    expect(csvRow(['a', null, 'b,c'])).toBe('a,,"b,c"\r\n');
  });
});

describe('warc', () => {
  it('base32 follows RFC 4648', () => {
    const cases: [string, string][] = [
      ['', ''],
      ['f', 'MY======'],
      ['fo', 'MZXQ===='],
      ['foo', 'MZXW6==='],
      ['foob', 'MZXW6YQ='],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI======'],
    ];
    for (const [input, output] of cases) expect(base32(new TextEncoder().encode(input)), input).toBe(output);
  });

  it('builds records with a Content-Length that counts the block', () => {
    const block = new TextEncoder().encode('héllo');
    const record = text(
      warcRecord(
        [
          ['WARC-Type', 'resource'],
          ['WARC-Target-URI', 'http://a.test/x\r\ny'],
        ],
        block,
      ),
    );
    expect(record).toBe(
      'WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.test/x y\r\nContent-Length: 6\r\n\r\nhéllo\r\n\r\n',
    );
  });

  it('rebuilds the HTTP response of a stored body, with digests of block and payload', async () => {
    const body = new TextEncoder().encode('<p>hi</p>');
    const block = httpResponseBlock(200, [['Content-Type', 'text/html']], body);
    expect(text(block)).toBe('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 9\r\n\r\n<p>hi</p>');
    const record = text(
      await responseRecord({
        url: 'http://a.test/',
        status: 200,
        contentType: 'text/html',
        etag: '"v1"',
        lastModified: null,
        fetchedAt: Date.UTC(2026, 0, 2, 3, 4, 5, 678),
        body,
      }),
    );
    expect(record).toMatch(
      /^WARC\/1\.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:[0-9a-f-]{36}>\r\nWARC-Date: 2026-01-02T03:04:05Z\r\nWARC-Target-URI: http:\/\/a\.test\/\r\n/,
    );
    expect(record).toContain(`WARC-Payload-Digest: ${await sha1Digest(body)}\r\n`);
    expect(record).toContain('Content-Type: application/http; msgtype=response\r\n');
    expect(record).toContain(
      '\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/html\r\nETag: "v1"\r\nContent-Length: 9\r\n\r\n<p>hi</p>\r\n\r\n',
    );
    // sha1("<p>hi</p>") in base32.
    expect(await sha1Digest(body)).toMatch(/^sha1:[A-Z2-7]{32}$/);
  });
});
