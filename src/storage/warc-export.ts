import { concatBytes } from '../domain/bytes';
import { responseRecord, warcDate, warcinfoRecord } from '../domain/warc';
import { storedPages, type StoredPage, type StoredPageCursor } from './d1/pages';
import type { CrawlRow } from './d1/crawls';

/** R2 multipart parts: all but the last the same size, at least 5 MiB. */
export const PART_BYTES = 8 * 1024 * 1024;
/** Segments up to this size are read once whole and sliced; larger ones page by page (ranged reads). */
const WHOLE_SEGMENT_MAX = 16 * 1024 * 1024;
const ROWS_PER_QUERY = 200;

export interface WarcExport {
  /** The R2 object written. */
  key: string;
  file: string;
  /** WARC records written (the warcinfo record and one response record per stored body). */
  records: number;
  /** Size of the .warc.gz. */
  bytes: number;
  /** Pages whose stored body was not found in R2 (listed in D1, object gone): not in the WARC. */
  missing: string[];
}

export const exportKey = (crawlId: string, file: string) => `crawls/${crawlId}/exports/${file}`;

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
}

/** Reads stored bodies in storage order, a segment at a time where it is small enough to hold. */
class BodyReader {
  private segment: { key: string; bytes: Uint8Array } | null = null;
  constructor(private readonly bucket: R2Bucket) {}

  async read(page: StoredPage): Promise<Uint8Array | null> {
    if (page.bodyOffset === null || page.bodyLength === null) {
      const object = await this.bucket.get(page.r2Key);
      return object ? new Uint8Array(await object.arrayBuffer()) : null;
    }
    if (page.bodyLength === 0) return new Uint8Array(0);
    if (this.segment?.key !== page.r2Key) {
      this.segment = null;
      const head = await this.bucket.head(page.r2Key);
      if (!head) return null;
      if (head.size <= WHOLE_SEGMENT_MAX) {
        const object = await this.bucket.get(page.r2Key);
        if (!object) return null;
        this.segment = { key: page.r2Key, bytes: new Uint8Array(await object.arrayBuffer()) };
      }
    }
    if (this.segment) return this.segment.bytes.subarray(page.bodyOffset, page.bodyOffset + page.bodyLength);
    const object = await this.bucket.get(page.r2Key, { range: { offset: page.bodyOffset, length: page.bodyLength } });
    return object ? new Uint8Array(await object.arrayBuffer()) : null;
  }
}

/**
 * Writes every stored body of a crawl to R2 as one WARC file (`crawls/<id>/exports/<file>.warc.gz`, each
 * record its own gzip member), uploaded in parts as it is built, so memory holds one part and one segment.
 */
export async function exportWarc(bucket: R2Bucket, db: D1Database, crawl: CrawlRow, { partBytes = PART_BYTES, now = Date.now() } = {}): Promise<WarcExport> {
  const file = `${crawl.id}-${warcDate(now).replace(/[-:]/g, '')}.warc.gz`;
  const key = exportKey(crawl.id, file);
  const upload = await bucket.createMultipartUpload(key, { httpMetadata: { contentType: 'application/warc', contentDisposition: `attachment; filename="${file}"` } });
  try {
    const parts: R2UploadedPart[] = [];
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    let bytes = 0;
    let records = 0;
    const sendPart = async (chunk: Uint8Array) => {
      parts.push(await upload.uploadPart(parts.length + 1, chunk));
      bytes += chunk.byteLength;
    };
    const add = async (record: Uint8Array) => {
      const member = await gzip(record);
      records++;
      pending.push(member);
      pendingBytes += member.byteLength;
      while (pendingBytes >= partBytes) {
        const all = concatBytes(pending, pendingBytes);
        await sendPart(all.slice(0, partBytes));
        pending = [all.slice(partBytes)];
        pendingBytes -= partBytes;
      }
    };

    await add(
      warcinfoRecord(
        file,
        {
          software: 'edgecrawl',
          format: 'WARC File Format 1.1',
          conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
          'edgecrawl-crawl-id': crawl.id,
          'edgecrawl-seeds': crawl.config.seeds.join(' '),
          description: 'Response records hold stored bodies; their HTTP headers are rebuilt from the recorded status, content type, ETag and Last-Modified.',
        },
        now,
      ),
    );
    const reader = new BodyReader(bucket);
    const missing: string[] = [];
    let cursor: StoredPageCursor | null = null;
    for (;;) {
      const rows = await storedPages(db, crawl.id, cursor, ROWS_PER_QUERY);
      for (const page of rows) {
        const body = await reader.read(page);
        if (body === null) missing.push(page.url);
        else await add(await responseRecord({ ...page, body }));
      }
      const last = rows.at(-1);
      if (!last || rows.length < ROWS_PER_QUERY) break;
      cursor = { key: last.r2Key, offset: last.bodyOffset ?? 0, url: last.url };
    }
    if (pendingBytes > 0 || parts.length === 0) await sendPart(concatBytes(pending, pendingBytes));
    await upload.complete(parts);
    return { key, file, records, bytes, missing };
  } catch (error) {
    await upload.abort().catch(() => undefined);
    throw error;
  }
}
