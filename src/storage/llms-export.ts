import {
  type LlmsPage,
  llmsEntry,
  llmsFullPage,
  llmsHead,
  llmsSection,
  packReads,
  type Section,
  type SectionContext,
  SectionPlanner,
  type SectionRead,
  sectionOf,
} from '../domain/output/llms-txt';
import { llmsRecordsIn, llmsUrls } from './d1/llms-pages';
import { type ExportRow, pageRecords } from './d1/page-records';
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
  render: (rows: ExportRow[]) => Promise<string>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = '';
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
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

/** URLs a planning step reads, and the most pages (and runs of URLs) one read of the writing pass asks for. */
const PLAN_ROWS = 2000;
const READ_LIMITS = { rows: ROWS, runs: 40 };

/** The sections of the crawl's listed pages, planned in one pass over their URLs (URL order). */
async function planSections(db: D1Database, crawlId: string, context: SectionContext): Promise<Section[]> {
  const planner = new SectionPlanner(context);
  let after = '';
  for (;;) {
    const urls = await llmsUrls(db, { crawlId, afterUrl: after, limit: PLAN_ROWS });
    for (const url of urls) planner.add(url);
    const last = urls.at(-1);
    if (last === undefined || urls.length < PLAN_ROWS) return planner.sections();
    after = last;
  }
}

/** One read of the writing pass: its rows, a step at a time, grouped by section in the read's order. */
async function readSections(db: D1Database, crawlId: string, read: SectionRead, context: SectionContext, step: number) {
  const bySection = new Map<string, ExportRow[]>(read.labels.map((label) => [label, []]));
  let after = '';
  for (;;) {
    const rows = await llmsRecordsIn(db, { crawlId, afterUrl: after, limit: step }, read.runs);
    // A page added since the plan, in another section's range, waits for the next llms.txt.
    for (const row of rows) bySection.get(sectionOf(row.url, context))?.push(row);
    const last = rows.at(-1);
    if (last === undefined || rows.length < step) return bySection;
    after = last.url;
  }
}

/**
 * llms.txt of a crawl: its head, then each section once (its pages in URL order), each page a link. Planned first
 * (the crawl's listed URLs, read once), then written a read at a time: a read holds at most ROWS pages from the
 * plan, or is one large section's runs (`limits`: the tests make them small).
 */
export function streamLlmsTxt(
  db: D1Database,
  crawlId: string,
  head: { name: string; summary: string; context: SectionContext },
  limits = READ_LIMITS,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let reads: SectionRead[] | null = null;
  let section: string | null = null;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(llmsHead(head.name, head.summary)));
      },
      async pull(controller) {
        reads ??= packReads(await planSections(db, crawlId, head.context), limits);
        const read = reads.shift();
        if (read === undefined) return controller.close();
        let text = '';
        for (const [label, rows] of await readSections(db, crawlId, read, head.context, limits.rows)) {
          if (rows.length === 0) continue;
          if (label !== section) text += llmsSection(label);
          section = label;
          text += rows.map(llmsEntry).join('');
        }
        if (text !== '') controller.enqueue(encoder.encode(text));
      },
    },
    { highWaterMark: 1 },
  );
}

/** llms-full.txt of a crawl: every listed page's markdown, in URL order (pages without markdown are left out). */
export function streamLlmsFull(db: D1Database, bucket: R2Bucket, crawlId: string): ReadableStream<Uint8Array> {
  return streamRows(db, crawlId, ROWS_WITH_RECORDS, async (rows) => {
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
