import type { UsageMeter } from '../../domain/crawl/usage';
import { columnsOf, type PageOf, readPage } from './page-rows';
import { chunkedIn } from './sql';

// What a recrawl reads of the previous crawl's pages: validators for a conditional GET, and what a 304 keeps.

/** What a 304 keeps of the previous crawl's page besides its body and links: what that crawl extracted. */
const KEPT_EXTRACTION = ['description', 'language', 'wordCount', 'warnings', 'recordAt', 'rendered'] as const;
const VALIDATORS_AND_STORAGE = [
  'url',
  'etag',
  'lastModified',
  'bodyAt',
  'contentType',
  'title',
  'contentHash',
  'linksAt',
] as const;
const PREVIOUS = [...VALIDATORS_AND_STORAGE, ...KEPT_EXTRACTION] as const;

/**
 * What a previous crawl fetched for a URL: the validators for a conditional GET, and where it stored the body and
 * links (a 304 keeps them) and what it extracted (kept too).
 */
export interface PreviousVersion extends PageOf<(typeof VALIDATORS_AND_STORAGE)[number]> {
  extracted: PageOf<(typeof KEPT_EXTRACTION)[number]>;
}

function toPreviousVersion(row: Record<string, unknown>): PreviousVersion {
  const { description, language, wordCount, warnings, recordAt, rendered, ...page } = readPage(row, PREVIOUS);
  return { ...page, extracted: { description, language, wordCount, warnings, recordAt, rendered } };
}

export async function previousVersions(
  db: D1Database,
  crawlId: string,
  urls: readonly string[],
  meter?: UsageMeter,
): Promise<Map<string, PreviousVersion>> {
  const statements = chunkedIn(
    db,
    `SELECT ${columnsOf(PREVIOUS)} FROM pages
     WHERE crawl_id = ? AND status IN (200, 304) AND duplicate_of IS NULL AND url IN ({in})`,
    [crawlId],
    urls,
  );
  const out = new Map<string, PreviousVersion>();
  for (const statement of statements) {
    const result = await statement.all();
    meter?.d1([result]);
    for (const row of result.results) {
      const previous = toPreviousVersion(row);
      out.set(previous.url, previous);
    }
  }
  return out;
}
