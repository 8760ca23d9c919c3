import { readPdf } from '../domain/pdf/read';
import { pdfExtract } from '../domain/pdf/record';
import { limiter } from '../lib/limit';
import { encodeRecord } from '../storage/records';
import type { PageRecord, Processed } from '../types';
import { finish, followable, type Job, MAX_LINKS_RECORDED } from './job';

/**
 * One PDF read at a time per isolate: pdf.js holds a copy of a document's bytes and 10-40 MB more while it reads it
 * (measured: docs/extraction.md), and a consumer fetches many pages at once within its 128 MB.
 */
const reading = limiter(1);

/**
 * A PDF response: stored as fetched, read for its text, metadata and links (domain/pdf/read.ts), its links offered to
 * the crawl as an HTML page's are. Whatever the document holds, it ends stored: what could not be read is a warning.
 */
export async function readPdfBody(job: Job, page: PageRecord, body: Uint8Array): Promise<Processed> {
  const read = await reading(() => readPdf(body, job.task.url));
  const extract = await pdfExtract(read, body, job.task.url, job.deps.extract);
  const pdfPage: PageRecord = {
    ...page,
    title: extract.title,
    description: extract.description,
    language: extract.language,
    wordCount: extract.wordCount,
    contentHash: extract.contentHash,
    warnings: [...(page.warnings ?? []), ...extract.warnings],
  };
  const depth = job.claim.depth + 1;
  const candidates = followable(job, read.links, depth);
  return finish(
    job,
    { kind: 'stored', fetched: true, links: candidates },
    {
      page: pdfPage,
      links: read.links.slice(0, MAX_LINKS_RECORDED),
      body,
      ...(extract.record ? { record: encodeRecord(extract.record, extract.outputs) } : {}),
    },
  );
}
