-- A page's outgoing links are stored in R2 beside its body, not as one D1 row per link (D1 bills each row written,
-- and ~20 link rows per page were most of a crawl's cost and of its D1 size): newline-separated URLs, the byte range
-- [links_offset, links_offset + links_length) of the object links_key (the chunk's segment, or a previous crawl's for
-- a page unchanged since). The links table stays for pages written before this migration (read when links_key is
-- NULL) and is no longer written.
ALTER TABLE pages ADD COLUMN links_key TEXT;
ALTER TABLE pages ADD COLUMN links_offset INTEGER;
ALTER TABLE pages ADD COLUMN links_length INTEGER;
-- Data lifecycle: a crawl's data is purged when DELETE /v1/crawls/:id?purge=true asks (purge_requested_at; the
-- crawl answers 404 from then on) or when its retention ends (expires_at = finished_at + retentionDays). The cron
-- trigger carries purges that did not finish in their request on to the end.
ALTER TABLE crawls ADD COLUMN purge_requested_at INTEGER;
ALTER TABLE crawls ADD COLUMN expires_at INTEGER;
CREATE INDEX crawls_purge ON crawls (purge_requested_at) WHERE purge_requested_at IS NOT NULL;
CREATE INDEX crawls_expiry ON crawls (expires_at) WHERE expires_at IS NOT NULL;
-- R2 objects of a purged crawl that later crawls of its schedule still point at (a page unchanged since keeps the
-- earlier crawl's body, record and links): kept until no live crawl of the schedule refers to them.
CREATE TABLE retained_objects (
  key         TEXT PRIMARY KEY,
  schedule_id TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX retained_objects_schedule ON retained_objects (schedule_id);
