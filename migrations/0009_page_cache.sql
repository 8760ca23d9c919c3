-- The page cache (maxAge on scrapes and crawls, docs/crawling.md "Page cache"): a page fetched recently by any crawl
-- or scrape is served from its stored body instead of a request to the site. cached_from: the crawl whose stored copy
-- a page was made from ('scrape': a scrape's); NULL: fetched from the site. Scrapes store their pages as rows of the
-- reserved crawl id 'scrape' (no crawls row), deleted by the cron once older than the longest maxAge.
ALTER TABLE pages ADD COLUMN cached_from TEXT;
-- The lookup, "the freshest stored body of this URL fetched at or after now - maxAge": one indexed read. Partial (rows
-- with a stored body only): an index row written per page stored, none for redirects and errors.
CREATE INDEX pages_cache ON pages (url, fetched_at) WHERE r2_key IS NOT NULL;
