-- The page cache (maxAge on scrapes and crawls, docs/crawling.md "Page cache"): a page fetched recently by any crawl
-- or scrape is served from its stored body instead of a request to the site. cached_from: the crawl whose stored copy
-- a page was made from ('scrape': a scrape's); NULL: fetched from the site. Scrapes store their pages as rows of the
-- reserved crawl id 'scrape' (no crawls row), deleted by the cron once older than the longest maxAge.
ALTER TABLE pages ADD COLUMN cached_from TEXT;
-- The lookup finds the crawls that ran within maxAge here, then probes pages by its primary key (crawl_id, url). No
-- index on pages: it would be one more row written per page stored, by every crawl (+$1 per million pages). A crawls
-- row is written a few times in a crawl's life: this index costs nothing per page.
CREATE INDEX crawls_finished ON crawls (finished_at);
