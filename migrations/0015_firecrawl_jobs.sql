-- Crawls started through Firecrawl's API (/v2/crawl, /v2/batch/scrape, and their /v1 forms: docs/firecrawl.md): what
-- their documents carry (Firecrawl's formats, normalized: src/domain/firecrawl/formats.ts), whether the job is a crawl
-- or a batch scrape, and the warning its start answered. The crawl itself is an edgecrawl crawl like any
-- other (crawls, pages, errors); a crawl without a row here is read through Firecrawl's API with the formats of its
-- extraction spec. Deleted with the crawl (jobs/purge.ts).
CREATE TABLE firecrawl_jobs (
  crawl_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('crawl', 'batch')),
  formats TEXT NOT NULL,
  warning TEXT
) WITHOUT ROWID;
