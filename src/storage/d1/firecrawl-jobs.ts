import { z } from 'zod';
import { type FirecrawlFormats, firecrawlFormatsSchema } from '../../domain/firecrawl/formats';
import { FIRECRAWL_EVENT_NAMES, type FirecrawlEventName } from '../../domain/firecrawl/webhook-options';
import { parseJsonOrNull } from '../../domain/util/json';

/** A crawl started through Firecrawl's API: a crawl or a batch scrape, and what its documents carry. */
export interface FirecrawlJob {
  crawlId: string;
  kind: 'crawl' | 'batch';
  formats: FirecrawlFormats;
  warning: string | null;
  /** Firecrawl's webhook events it asked for (started, page, completed, failed); null: all of them. */
  events: FirecrawlEventName[] | null;
}

const rowSchema = z.object({
  crawl_id: z.string(),
  kind: z.enum(['crawl', 'batch']),
  formats: z.string(),
  warning: z.string().nullable(),
  events: z.string().nullable().optional(),
});
const eventsSchema = z.array(z.enum(FIRECRAWL_EVENT_NAMES));

export async function saveFirecrawlJob(db: D1Database, job: FirecrawlJob): Promise<void> {
  await db
    .prepare('INSERT INTO firecrawl_jobs (crawl_id, kind, formats, warning, events) VALUES (?, ?, ?, ?, ?)')
    .bind(job.crawlId, job.kind, JSON.stringify(job.formats), job.warning, job.events && JSON.stringify(job.events))
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
  const events = eventsSchema.safeParse(parseJsonOrNull(row.data.events ?? 'null'));
  return { crawlId: crawl_id, kind, formats: formats.data, warning, events: events.success ? events.data : null };
}

/** A job's row, when its crawl could not be started after all. */
export async function deleteFirecrawlJob(db: D1Database, crawlId: string): Promise<void> {
  await db.prepare('DELETE FROM firecrawl_jobs WHERE crawl_id = ?').bind(crawlId).run();
}
