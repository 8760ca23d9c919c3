import { z } from 'zod';
import { type FirecrawlFormats, firecrawlFormatsSchema } from '../../domain/firecrawl/formats';
import { parseJsonOrNull } from '../../domain/util/json';

/** A crawl started through Firecrawl's API: a crawl or a batch scrape, and what its documents carry. */
export interface FirecrawlJob {
  crawlId: string;
  kind: 'crawl' | 'batch';
  formats: FirecrawlFormats;
  warning: string | null;
}

const rowSchema = z.object({
  crawl_id: z.string(),
  kind: z.enum(['crawl', 'batch']),
  formats: z.string(),
  warning: z.string().nullable(),
});

export async function saveFirecrawlJob(db: D1Database, job: FirecrawlJob): Promise<void> {
  await db
    .prepare('INSERT INTO firecrawl_jobs (crawl_id, kind, formats, warning) VALUES (?, ?, ?, ?)')
    .bind(job.crawlId, job.kind, JSON.stringify(job.formats), job.warning)
    .run();
}

/** The Firecrawl job a crawl is, or null (a crawl started through edgecrawl's own API, or a row that is not one). */
export async function getFirecrawlJob(db: D1Database, crawlId: string): Promise<FirecrawlJob | null> {
  const row = rowSchema.safeParse(
    await db.prepare('SELECT * FROM firecrawl_jobs WHERE crawl_id = ?').bind(crawlId).first(),
  );
  if (!row.success) return null;
  const formats = firecrawlFormatsSchema.safeParse(parseJsonOrNull(row.data.formats));
  if (!formats.success) return null;
  const { crawl_id, kind, warning } = row.data;
  return { crawlId: crawl_id, kind, formats: formats.data, warning };
}

/** A job's row, when its crawl could not be started after all. */
export async function deleteFirecrawlJob(db: D1Database, crawlId: string): Promise<void> {
  await db.prepare('DELETE FROM firecrawl_jobs WHERE crawl_id = ?').bind(crawlId).run();
}
