import { describe, expect, it } from 'vitest';
import { csvField, csvRow } from '../../src/domain/output/csv';
import {
  base32,
  conversionRecord,
  headerValue,
  httpResponseBlock,
  payloadHeaders,
  requestRecord,
  responseRecord,
  sha1Digest,
  warcRecord,
} from '../../src/domain/output/warc';

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

describe('warc: the exchange of a fetch, and what was made of it', () => {
  const fetchedAt = Date.UTC(2026, 0, 2, 3, 4, 5);

  it('keeps the headers received, made true of the decoded payload', () => {
    const received: [string, string][] = [
      ['content-type', 'text/html; charset=iso-8859-1'],
      ['content-encoding', 'br'],
      ['content-length', '120'],
      ['transfer-encoding', 'chunked'],
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ];
    expect(payloadHeaders(received, 300)).toEqual([
      ['content-type', 'text/html; charset=iso-8859-1'],
      ['x-crawler-content-encoding', 'br'],
      ['x-crawler-content-length', '120'],
      ['x-crawler-transfer-encoding', 'chunked'],
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ]);
    // A Content-Length that is the payload's is the one httpResponseBlock writes: not kept twice.
    expect(payloadHeaders([['Content-Length', '300']], 300)).toEqual([]);
    expect(headerValue(received, 'Content-Type')).toBe('text/html; charset=iso-8859-1');
    expect(headerValue(received, 'etag')).toBeNull();
  });

  it('writes a response with the status line and headers received, bytes of the head as sent (ISO-8859-1)', async () => {
    const body = new Uint8Array([0x3c, 0x70, 0x3e, 0xe9, 0x3c, 0x2f, 0x70, 0x3e]);
    const record = await responseRecord({
      url: 'http://a.test/x?y=1',
      status: 200,
      contentType: 'text/html; charset=utf-8',
      etag: null,
      lastModified: null,
      fetchedAt,
      body,
      response: { status: 203, statusText: 'Fine', headers: [['x-name', 'Zoë']] },
      id: '<urn:uuid:00000000-0000-4000-8000-000000000001>',
    });
    const latin = new TextDecoder('latin1').decode(record);
    expect(latin).toContain('WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n');
    expect(latin).toContain('\r\n\r\nHTTP/1.1 203 Fine\r\nx-name: Zoë\r\nContent-Length: 8\r\n\r\n<p>é</p>\r\n\r\n');
  });

  it('writes the request as HTTP/1.1 puts it on the wire, concurrent to its response', async () => {
    const record = text(
      await requestRecord({
        url: 'http://a.test:8080/p%20q?x=1#frag',
        fetchedAt,
        recorded: {
          method: 'GET',
          headers: [
            ['user-agent', 'edgecrawl/0.1'],
            ['if-none-match', '"v1"'],
          ],
        },
        concurrentTo: '<urn:uuid:00000000-0000-4000-8000-000000000001>',
      }),
    );
    const block =
      'GET /p%20q?x=1 HTTP/1.1\r\nhost: a.test:8080\r\nuser-agent: edgecrawl/0.1\r\nif-none-match: "v1"\r\n\r\n';
    expect(record).toMatch(/^WARC\/1\.1\r\nWARC-Type: request\r\nWARC-Record-ID: <urn:uuid:[0-9a-f-]{36}>\r\n/);
    expect(record).toContain('WARC-Target-URI: http://a.test:8080/p%20q?x=1#frag\r\n');
    expect(record).toContain('WARC-Concurrent-To: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n');
    expect(record).toContain(`WARC-Block-Digest: ${await sha1Digest(new TextEncoder().encode(block))}\r\n`);
    expect(record).toContain('Content-Type: application/http; msgtype=request\r\n');
    expect(record.endsWith(`Content-Length: ${block.length}\r\n\r\n${block}\r\n\r\n`)).toBe(true);
  });

  it('writes what was made of a response as a conversion record referring to it', async () => {
    const dom = new TextEncoder().encode('<html><body>built</body></html>');
    const record = text(
      await conversionRecord({
        url: 'http://a.test/',
        fetchedAt,
        contentType: 'text/html; charset=utf-8',
        body: dom,
        refersTo: '<urn:uuid:00000000-0000-4000-8000-000000000001>',
      }),
    );
    expect(record).toMatch(/^WARC\/1\.1\r\nWARC-Type: conversion\r\n/);
    expect(record).toContain('WARC-Date: 2026-01-02T03:04:05Z\r\nWARC-Target-URI: http://a.test/\r\n');
    expect(record).toContain('WARC-Refers-To: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n');
    expect(record).toContain(`WARC-Block-Digest: ${await sha1Digest(dom)}\r\n`);
    expect(record).toContain(`Content-Type: text/html; charset=utf-8\r\nContent-Length: ${dom.byteLength}\r\n\r\n`);
    const alone = text(
      await conversionRecord({ url: 'http://a.test/', fetchedAt, contentType: 'text/html', body: dom, refersTo: null }),
    );
    expect(alone).not.toContain('WARC-Refers-To');
  });
});
