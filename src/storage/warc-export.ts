import type { UsageMeter } from '../domain/crawl/usage';
import {
  conversionRecord,
  requestRecord,
  responseRecord,
  warcDate,
  warcinfoRecord,
  warcRecordId,
} from '../domain/output/warc';
import { concatBytes } from '../domain/util/bytes';
import { BodyReader } from './bodies';
import type { CrawlRow } from './d1/crawls';
import { type StoredPage, type StoredPageCursor, storedPages } from './d1/stored-bodies';
import { decodeExchange } from './exchange';

/** R2 multipart parts: all but the last the same size, at least 5 MiB. */
const PART_BYTES = 8 * 1024 * 1024;
const ROWS_PER_QUERY = 200;

export interface WarcExport {
  /** The R2 object written. */
  key: string;
  file: string;
  /**
   * WARC records written: the warcinfo record; per stored page its request (when its exchange was recorded) and
   * response; per rendered page a conversion (the rendered DOM) too.
   */
  records: number;
  /** Size of the .warc.gz. */
  bytes: number;
  /** Pages whose stored body was not found in R2 (listed in D1, object gone): not in the WARC. */
  missing: string[];
}

const exportKey = (crawlId: string, file: string) => `crawls/${crawlId}/exports/${file}`;

/** A file an export wrote, or null. */
export function readExport(bucket: R2Bucket, crawlId: string, file: string): Promise<R2ObjectBody | null> {
  return bucket.get(exportKey(crawlId, file));
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(
    await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer(),
  );
}

/** Gzip members added one by one, uploaded as equal parts of `partBytes` (the last one shorter) as they fill. */
class PartWriter {
  readonly parts: R2UploadedPart[] = [];
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  bytes = 0;
  records = 0;

  constructor(
    private readonly upload: R2MultipartUpload,
    private readonly partBytes: number,
    private readonly meter?: UsageMeter,
  ) {}

  /** Adds one WARC record as its own gzip member. */
  async add(record: Uint8Array): Promise<void> {
    const member = await gzip(record);
    this.records++;
    this.pending.push(member);
    this.pendingBytes += member.byteLength;
    while (this.pendingBytes >= this.partBytes) {
      const all = concatBytes(this.pending, this.pendingBytes);
      await this.send(all.slice(0, this.partBytes));
      this.pending = [all.slice(this.partBytes)];
      this.pendingBytes -= this.partBytes;
    }
  }

  /** Uploads what is left and completes the upload. */
  async finish(): Promise<void> {
    if (this.pendingBytes > 0 || this.parts.length === 0) await this.send(concatBytes(this.pending, this.pendingBytes));
    await this.upload.complete(this.parts);
    this.meter?.count('r2ClassA');
  }

  private async send(chunk: Uint8Array): Promise<void> {
    this.parts.push(await this.upload.uploadPart(this.parts.length + 1, chunk));
    this.bytes += chunk.byteLength;
    this.meter?.r2Put(chunk.byteLength);
  }
}

function crawlInfo(crawl: CrawlRow, file: string, now: number): Uint8Array {
  return warcinfoRecord(
    file,
    {
      software: 'edgecrawl',
      format: 'WARC File Format 1.1',
      conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
      'edgecrawl-crawl-id': crawl.id,
      'edgecrawl-seeds': crawl.config.seeds.join(' '),
      description: [
        'Request records hold the request as the crawler made it (the runtime may add connection headers, such as Accept-Encoding).',
        'Response records hold what the server sent: its status line and headers as received, the body as stored, decoded (Content-Encoding, Transfer-Encoding and a Content-Length other than the payload length kept as X-Crawler-* headers).',
        'Where the exchange was not recorded (a page taken from the page cache, a 304, pages stored before exchanges were kept) the HTTP head is rebuilt from the recorded status, content type, ETag and Last-Modified, and there is no request record.',
        'A page rendered in a browser adds a conversion record: its rendered DOM (what GET /content answers for it), WARC-Refers-To its response.',
      ].join(' '),
    },
    now,
  );
}

/** Adds the records of every stored page, in storage order; returns the pages whose body is gone. */
async function addResponses(
  writer: PartWriter,
  reader: BodyReader,
  db: D1Database,
  crawlId: string,
): Promise<string[]> {
  const missing: string[] = [];
  let cursor: StoredPageCursor | null = null;
  for (;;) {
    const rows = await storedPages(db, crawlId, cursor, ROWS_PER_QUERY);
    for (const page of rows) {
      const records = await pageRecords(reader, page);
      if (records === null) missing.push(page.url);
      else for (const record of records) await writer.add(record);
    }
    const last = rows.at(-1);
    if (!last || rows.length < ROWS_PER_QUERY) return missing;
    cursor = { key: last.bodyAt.key, offset: last.bodyAt.offset ?? 0, url: last.url };
  }
}

/**
 * A page's records: what the server sent as its response (a rendered page's HTML as fetched, not its DOM), preceded
 * by the request when the exchange was recorded, and for a rendered page the DOM as a conversion record referring to
 * that response. Null when its stored body is gone.
 */
async function pageRecords(reader: BodyReader, page: StoredPage): Promise<Uint8Array[] | null> {
  const body = await reader.read(page.bodyAt);
  if (body === null) return null;
  const exchangeBytes = page.exchangeAt ? await reader.read({ key: page.bodyAt.key, ...page.exchangeAt }) : null;
  const exchange = exchangeBytes ? decodeExchange(exchangeBytes) : null;
  const rendered = page.rendered !== null;
  // What the server sent: the body, or for a rendered page its HTML as fetched (none kept: no response record).
  const sent = !rendered ? body : page.fetchedBodyAt ? await reader.read(page.fetchedBodyAt) : null;
  const records: Uint8Array[] = [];
  const id = warcRecordId();
  if (sent !== null) {
    const { url, fetchedAt } = page;
    if (exchange) records.push(await requestRecord({ url, fetchedAt, recorded: exchange.request, concurrentTo: id }));
    // Without the recorded head, a rendered page's content type is the DOM's: the fetched HTML's is not known.
    const contentType = rendered ? 'text/html' : page.contentType;
    records.push(await responseRecord({ ...page, contentType, body: sent, response: exchange?.response ?? null, id }));
  }
  if (rendered) {
    const contentType = page.contentType ?? 'text/html; charset=utf-8';
    const refersTo = sent === null ? null : id;
    records.push(await conversionRecord({ url: page.url, fetchedAt: page.fetchedAt, contentType, body, refersTo }));
  }
  return records;
}

/**
 * Writes every stored body of a crawl to R2 as one WARC file (`crawls/<id>/exports/<file>.warc.gz`, each
 * record its own gzip member), uploaded in parts as it is built, so memory holds one part and one segment.
 */
export async function exportWarc(
  bucket: R2Bucket,
  db: D1Database,
  crawl: CrawlRow,
  { partBytes = PART_BYTES, now = Date.now(), meter }: { partBytes?: number; now?: number; meter?: UsageMeter } = {},
): Promise<WarcExport> {
  const file = `${crawl.id}-${warcDate(now).replace(/[-:]/g, '')}.warc.gz`;
  const key = exportKey(crawl.id, file);
  meter?.count('r2ClassA');
  const upload = await bucket.createMultipartUpload(key, {
    httpMetadata: { contentType: 'application/warc', contentDisposition: `attachment; filename="${file}"` },
  });
  try {
    const writer = new PartWriter(upload, partBytes, meter);
    await writer.add(crawlInfo(crawl, file, now));
    const missing = await addResponses(writer, new BodyReader(bucket, meter), db, crawl.id);
    await writer.finish();
    return { key, file, records: writer.records, bytes: writer.bytes, missing };
  } catch (error) {
    await upload.abort().catch(() => undefined);
    throw error;
  }
}

/** A file an export wrote, as listed. */
export interface ExportFile {
  file: string;
  bytes: number;
  createdAt: number;
}

/** The files exports of a crawl wrote, oldest first (at most 1,000: one R2 list). */
export async function listExports(bucket: R2Bucket, crawlId: string): Promise<ExportFile[]> {
  const prefix = exportKey(crawlId, '');
  const listed = await bucket.list({ prefix, limit: 1000 });
  return listed.objects
    .map((o) => ({ file: o.key.slice(prefix.length), bytes: o.size, createdAt: o.uploaded.getTime() }))
    .sort((a, b) => a.createdAt - b.createdAt);
}
