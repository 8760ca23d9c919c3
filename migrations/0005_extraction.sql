-- Content extraction (a crawl's `extract` spec). A page's extraction record (metadata, JSON-LD, fields, and the
-- markdown, text and html outputs) is JSON in R2: the byte range [record_offset, record_offset + record_length)
-- of the object record_key (a segment of its chunk). D1 keeps the small facts listings and exports show.
ALTER TABLE pages ADD COLUMN record_key TEXT;
ALTER TABLE pages ADD COLUMN record_offset INTEGER;
ALTER TABLE pages ADD COLUMN record_length INTEGER;
ALTER TABLE pages ADD COLUMN description TEXT;
ALTER TABLE pages ADD COLUMN language TEXT;
ALTER TABLE pages ADD COLUMN word_count INTEGER;
-- SHA-256 of the page's content (its extracted text when extracting, else its body): a recrawl counts a page
-- whose hash did not change as unchanged, even when the server ignores conditional requests.
ALTER TABLE pages ADD COLUMN content_hash TEXT;
-- JSON array of what could not be read of the page (too large to parse, markup the parser gave up on).
ALTER TABLE pages ADD COLUMN warnings TEXT;
-- A crawl's extraction spec as re-extraction last set it (NULL: the spec it was created with), its version (each
-- re-extraction adds one; queue messages of an older one are dropped), and the progress of re-extraction.
ALTER TABLE crawls ADD COLUMN extract TEXT;
ALTER TABLE crawls ADD COLUMN extract_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE crawls ADD COLUMN extraction_status TEXT CHECK (extraction_status IN ('running', 'completed'));
ALTER TABLE crawls ADD COLUMN extraction_done INTEGER NOT NULL DEFAULT 0;
ALTER TABLE crawls ADD COLUMN extraction_total INTEGER NOT NULL DEFAULT 0;
