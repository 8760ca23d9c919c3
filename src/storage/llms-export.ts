import { type LlmsPage, llmsEntry, llmsFullPage, llmsHead, llmsSection, sectionOf } from '../domain/llms-txt';
import { type ExportRow, pageRecords } from './d1/pages';
import { recordsOf } from './page-export';

/** Rows read from D1 per step (each with its record from R2 for llms-full.txt). */
const ROWS = 500;
const ROWS_WITH_RECORDS = 100;

/** A page llms.txt lists: stored, and HTML or PDF (a redirect, an error or an image says nothing to a reader). */
const listed = (row: ExportRow): boolean => row.stored && /html|pdf/i.test(row.contentType ?? '');

/** Streams text made from the crawl's pages, a step of rows at a time, in URL order. */
function streamRows(
  db: D1Database,
  crawlId: string,
  step: number,
  head: string,
  render: (rows: ExportRow[]) => Promise<string>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = '';
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (head !== '') controller.enqueue(encoder.encode(head));
      },
      async pull(controller) {
        if (done) return controller.close();
        const rows = await pageRecords(db, { crawlId, afterUrl: after, limit: step });
        const last = rows.at(-1);
        if (last) after = last.url;
        if (rows.length < step) done = true;
        const text = await render(rows.filter(listed));
        if (text !== '') controller.enqueue(encoder.encode(text));
        if (done && !last) controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}

/** llms.txt of a crawl: its head, then a section per host and first path segment, each page a link. */
export function streamLlmsTxt(
  db: D1Database,
  crawlId: string,
  head: { name: string; summary: string; withHost: boolean },
): ReadableStream<Uint8Array> {
  let section: string | null = null;
  return streamRows(db, crawlId, ROWS, llmsHead(head.name, head.summary), async (rows) => {
    let text = '';
    for (const row of rows) {
      const next = sectionOf(row.url, head.withHost);
      if (next !== section) text += llmsSection(next);
      section = next;
      text += llmsEntry(row);
    }
    return text;
  });
}

/** llms-full.txt of a crawl: every listed page's markdown, in URL order (pages without markdown are left out). */
export function streamLlmsFull(db: D1Database, bucket: R2Bucket, crawlId: string): ReadableStream<Uint8Array> {
  return streamRows(db, crawlId, ROWS_WITH_RECORDS, '', async (rows) => {
    const records = await recordsOf(bucket, rows);
    return rows
      .map((row, i) => {
        const markdown = records[i]?.outputs.markdown;
        const page: LlmsPage = row;
        return markdown === undefined ? '' : llmsFullPage(page, markdown);
      })
      .join('');
  });
}
