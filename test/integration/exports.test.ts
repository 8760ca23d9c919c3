import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { warcExportSchema } from '../../src/api/responses';
import { sha1Digest } from '../../src/domain/output/warc';
import { getCrawl as getCrawlRow } from '../../src/storage/d1/crawls';
import { exportWarc } from '../../src/storage/warc-export';
import { allPages, api, createCrawl, namespace, site, waitForCrawl } from '../support/api';
import { checkWarcStructure, parseWarcGz } from '../support/warc';

/** RFC 4180 CSV into rows of fields (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(field), (field = '');
    else if (ch === '\r' && text[i + 1] === '\n') row.push(field), rows.push(row), (row = []), (field = ''), i++;
    else field += ch;
  }
  expect(field === '' && row.length === 0, 'CSV ends with CRLF').toBe(true);
  return rows;
}

describe('exports', () => {
  it('jsonl and csv stream every page record the pages listing has, field for field', async () => {
    const ns = namespace();
    // More pages than one export query reads (500), plus the misc site's redirects, 404s and text. Plain crawls
    // (extract: null): the columns below are a page's own, without an extraction's.
    const [big, misc] = await Promise.all([
      createCrawl({ seeds: [`${site()}/t/${ns}/pure-520/`], extract: null }),
      createCrawl({ seeds: [`${site()}/t/${ns}/misc/`], extract: null }),
    ]);
    for (const id of [big, misc]) {
      await waitForCrawl(id);
      const pages = await allPages(id, 1000);
      const jsonl = await api(`/v1/crawls/${id}/export?format=jsonl`);
      expect(jsonl.status).toBe(200);
      expect(jsonl.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
      expect(jsonl.headers.get('content-disposition')).toBe(`attachment; filename="${id}.jsonl"`);
      const text = await jsonl.text();
      expect(text.endsWith('\n')).toBe(true);
      const records = text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(records.map((r) => r.url)).toEqual(pages.map((p) => p.url));
      // Each record holds the listing's fields, and more.
      records.forEach((r, i) => expect(r).toMatchObject({ ...pages[i] }));
      expect(records.every((r) => typeof r.stored === 'boolean')).toBe(true);

      const csv = await api(`/v1/crawls/${id}/export?format=csv`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
      const [header, ...rows] = parseCsv(await csv.text());
      expect(header).toEqual([
        'url',
        'status',
        'contentType',
        'title',
        'depth',
        'bytes',
        'fetchedAt',
        'rendered',
        'redirectTo',
        'etag',
        'lastModified',
        'change',
        'cachedFrom',
        'duplicateOf',
        'duplicateReason',
        'similarity',
        'stored',
      ]);
      expect(rows).toHaveLength(pages.length);
      rows.forEach((row, i) => {
        const record = records[i]!;
        expect(row, String(record.url)).toEqual(header!.map((f) => (record[f] === null ? '' : String(record[f]))));
      });
    }
    const miscRecords = (await (await api(`/v1/crawls/${misc}/export?format=jsonl`)).text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { url: string; status: number; redirectTo: string | null; stored: boolean });
    const moved = miscRecords.find((r) => r.url.endsWith('/misc/moved'));
    expect(moved).toMatchObject({ status: 301, redirectTo: `${site()}/t/${ns}/misc/ok2.html`, stored: false });
    expect(miscRecords.find((r) => r.url.endsWith('/missing.html'))).toMatchObject({ status: 404, stored: false });
  });

  it('rejects bad formats and unknown crawls', async () => {
    const id = await createCrawl({ seeds: [`${site()}/t/${namespace()}/pure-1/`] });
    await waitForCrawl(id);
    for (const query of ['', 'format=xml', 'format=csv&x=1'])
      expect((await api(`/v1/crawls/${id}/export?${query}`)).status, query).toBe(400);
    const get = await api(`/v1/crawls/${id}/export?format=warc`);
    expect(get.status).toBe(400);
    expect(await get.json()).toMatchObject({ error: { code: 'use_post' } });
    expect((await api(`/v1/crawls/${id}/export?format=csv`, { method: 'POST' })).status).toBe(400);
    const csvFile = await api(`/v1/crawls/${id}/exports`, { method: 'POST', body: '{"format":"csv"}' });
    expect(csvFile.status).toBe(400);
    expect((await api(`/v1/crawls/${id}/exports`)).status).toBe(200);
    // The former route still writes a WARC (deprecated in the OpenAPI document).
    expect((await api(`/v1/crawls/${id}/export?format=warc`, { method: 'POST' })).status).toBe(201);
    expect((await api(`/v1/crawls/${crypto.randomUUID()}/export?format=jsonl`)).status).toBe(404);
    expect((await api(`/v1/crawls/${id}/exports/..%2Fsecret`)).status).toBe(404);
    expect((await api(`/v1/crawls/${id}/exports/${id}-20260101T000000Z.warc.gz`)).status).toBe(404);
    expect((await api(`/v1/crawls/${id}/export?format=jsonl`, { token: null })).status).toBe(401);
  });

  it('POST /exports writes every stored body to R2 as a WARC whose payloads match the stored content', async () => {
    const ns = namespace();
    const id = await createCrawl({ seeds: [`${site()}/t/${ns}/tree-60/`] });
    await waitForCrawl(id);
    const res = await api(`/v1/crawls/${id}/exports`, { method: 'POST' });
    expect(res.status).toBe(201);
    const result = warcExportSchema.parse(await res.json());
    const listed = await api(`/v1/crawls/${id}/exports`);
    expect(((await listed.json()) as { exports: unknown[] }).exports).toEqual([
      { file: result.file, bytes: result.bytes, createdAt: expect.any(String), download: result.download },
    ]);
    const stored = (await allPages(id)).filter((p) => p.status === 200);
    // The warcinfo record, then each page's request and response.
    expect(result).toMatchObject({
      records: 2 * stored.length + 1,
      missing: [],
      download: `/v1/crawls/${id}/exports/${result.file}`,
    });
    expect(result.key).toBe(`crawls/${id}/exports/${result.file}`);

    const download = await api(result.download);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/warc');
    const gz = new Uint8Array(await download.arrayBuffer());
    expect(gz.byteLength).toBe(result.bytes);
    const records = parseWarcGz(gz);
    checkWarcStructure(records);
    expect(records[0]!.headers.get('WARC-Type')).toBe('warcinfo');
    expect(new TextDecoder().decode(records[0]!.block)).toContain(`edgecrawl-crawl-id: ${id}`);
    const responses = records.filter((r) => r.headers.get('WARC-Type') === 'response');
    expect(responses.map((r) => r.headers.get('WARC-Target-URI')).sort()).toEqual(stored.map((p) => p.url).sort());
    const requests = records.filter((r) => r.headers.get('WARC-Type') === 'request');
    expect(requests.map((r) => r.headers.get('WARC-Concurrent-To'))).toEqual(
      responses.map((r) => r.headers.get('WARC-Record-ID')),
    );
    for (const record of responses) {
      const url = record.headers.get('WARC-Target-URI')!;
      expect(record.headers.get('WARC-Type')).toBe('response');
      expect(record.headers.get('Content-Type')).toBe('application/http; msgtype=response');
      expect(record.headers.get('WARC-Block-Digest')).toBe(await sha1Digest(record.block));
      const split = new TextDecoder('latin1').decode(record.block).indexOf('\r\n\r\n');
      const http = new TextDecoder('latin1').decode(record.block.subarray(0, split));
      const payload = record.block.subarray(split + 4);
      const content = await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(url)}`);
      expect(payload, url).toEqual(new Uint8Array(await content.arrayBuffer()));
      expect(record.headers.get('WARC-Payload-Digest')).toBe(await sha1Digest(payload));
      // The head the server sent (names as the runtime gives them), the payload's length last.
      expect(http).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(http).toContain(`\r\ncontent-type: ${content.headers.get('content-type')}\r\n`);
      expect(http).toMatch(new RegExp(`\r\nContent-Length: ${payload.byteLength}$`));
    }
  });

  it('a response sent gzip-encoded: the payload as stored (decoded) under the headers received, made true of it', async () => {
    const url = `${site()}/t/${namespace()}/faults/gzipped.html`;
    const id = await createCrawl({ seeds: [url], maxDepth: 0 });
    await waitForCrawl(id);
    const res = await api(`/v1/crawls/${id}/exports`, { method: 'POST' });
    const written = warcExportSchema.parse(await res.json());
    const records = parseWarcGz(new Uint8Array(await (await api(written.download)).arrayBuffer()));
    checkWarcStructure(records);
    expect(records.map((r) => r.headers.get('WARC-Type'))).toEqual(['warcinfo', 'request', 'response']);
    const block = records[2]!.block;
    const split = new TextDecoder('latin1').decode(block).indexOf('\r\n\r\n');
    const head = new TextDecoder('latin1').decode(block.subarray(0, split)).split('\r\n');
    const payload = block.subarray(split + 4);
    const stored = new Uint8Array(
      await (await api(`/v1/crawls/${id}/content?url=${encodeURIComponent(url)}`)).arrayBuffer(),
    );
    expect(payload).toEqual(stored);
    expect(new TextDecoder().decode(payload)).toContain('squeezed squeezed');
    const names = head.slice(1).map((l) => l.slice(0, l.indexOf(':')).toLowerCase());
    expect(names).not.toContain('content-encoding');
    expect(head).toContain('x-crawler-content-encoding: gzip');
    // The length on the wire (compressed) is kept aside; the Content-Length is the payload's.
    const wire = head.find((l) => l.startsWith('x-crawler-content-length: '));
    expect(Number(wire?.split(': ')[1])).toBeLessThan(payload.byteLength);
    expect(head.at(-1)).toBe(`Content-Length: ${payload.byteLength}`);
    expect(names.filter((n) => n === 'content-length')).toHaveLength(1);
  });

  it('uploads a large WARC in equal parts, reads a large segment by ranges, and names pages whose body is gone', async () => {
    const ns = namespace();
    const id = await createCrawl({ seeds: [`${site()}/t/${ns}/tree-20/`] });
    await waitForCrawl(id);
    const crawl = (await getCrawlRow(env.DB, id))!;
    // Two incompressible 8.5 MiB bodies in one 17 MiB segment (past the size read whole), added beside the crawl's own.
    const half = 8.5 * 1024 * 1024;
    const segment = new Uint8Array(2 * half);
    for (let i = 0; i < segment.length; i += 65536) crypto.getRandomValues(segment.subarray(i, i + 65536));
    const bigKey = `crawls/${id}/segments/zz-big`;
    await env.BODIES.put(bigKey, segment);
    const base = `${site()}/t/${ns}/tree-20/`;
    for (const [i, url] of [`${base}big-0.bin`, `${base}big-1.bin`].entries()) {
      await env.DB.prepare(
        "INSERT INTO pages (crawl_id, url, status, content_type, depth, bytes, fetched_at, r2_key, body_offset, body_length) VALUES (?, ?, 200, 'application/octet-stream', 1, ?, ?, ?, ?, ?)",
      )
        .bind(id, url, half, Date.now(), bigKey, i * half, half)
        .run();
    }
    const stored = (await allPages(id)).filter((p) => p.status === 200);

    // The bucket, with the size of every part uploaded noted.
    const partSizes: number[] = [];
    const bucket = {
      head: (key: string) => env.BODIES.head(key),
      get: (key: string, options?: R2GetOptions) => env.BODIES.get(key, options),
      createMultipartUpload: async (key: string, options?: R2MultipartOptions) => {
        const upload = await env.BODIES.createMultipartUpload(key, options);
        return {
          uploadPart: (n: number, value: Uint8Array) => (partSizes.push(value.byteLength), upload.uploadPart(n, value)),
          complete: (parts: R2UploadedPart[]) => upload.complete(parts),
          abort: () => upload.abort(),
        };
      },
    } as unknown as R2Bucket;
    const parted = await exportWarc(bucket, env.DB, crawl, { partBytes: 5 * 1024 * 1024 });
    // The warcinfo record; a request and a response per page the crawl fetched; the two rows added here have no
    // recorded exchange: a response alone, its head rebuilt.
    const recordsOf = (pages: number) => 2 * pages - 2 + 1;
    expect(parted).toMatchObject({ records: recordsOf(stored.length), missing: [] });
    expect(parted.bytes).toBeGreaterThan(3 * 5 * 1024 * 1024);
    // R2 wants every part but the last of one size.
    expect(partSizes.length).toBeGreaterThanOrEqual(4);
    expect(new Set(partSizes.slice(0, -1))).toEqual(new Set([5 * 1024 * 1024]));
    expect(partSizes.reduce((a, b) => a + b, 0)).toBe(parted.bytes);
    const object = await env.BODIES.get(parted.key);
    expect(object!.size).toBe(parted.bytes);
    const records = parseWarcGz(new Uint8Array(await object!.arrayBuffer()));
    checkWarcStructure(records);
    expect(records).toHaveLength(recordsOf(stored.length));
    for (const [i, name] of ['big-0.bin', 'big-1.bin'].entries()) {
      const [record, ...more] = records.filter((r) => r.headers.get('WARC-Target-URI') === `${base}${name}`);
      expect(more).toEqual([]);
      const split = new TextDecoder('latin1').decode(record!.block.subarray(0, 1000)).indexOf('\r\n\r\n');
      expect(record!.block.subarray(split + 4)).toEqual(segment.subarray(i * half, (i + 1) * half));
      expect(new TextDecoder().decode(record!.block.subarray(0, split))).toBe(
        `HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: ${half}`,
      );
    }

    // A segment deleted behind D1's back: its pages are reported, the rest exported.
    const { results } = await env.DB.prepare(
      'SELECT r2_key FROM pages WHERE crawl_id = ? AND r2_key IS NOT NULL AND r2_key != ? ORDER BY r2_key LIMIT 1',
    )
      .bind(id, bigKey)
      .all<{ r2_key: string }>();
    const key = results[0]!.r2_key;
    const lost = (
      await env.DB.prepare('SELECT url FROM pages WHERE crawl_id = ? AND r2_key = ? ORDER BY url')
        .bind(id, key)
        .all<{ url: string }>()
    ).results.map((r) => r.url);
    expect(lost.length).toBeGreaterThan(0);
    await env.BODIES.delete(key);
    const partial = await exportWarc(env.BODIES, env.DB, crawl, { now: Date.now() + 1000 });
    expect([...partial.missing].sort()).toEqual(lost);
    expect(partial.records).toBe(recordsOf(stored.length) - 2 * lost.length);
  });
});
