-- What a crawl came to, mirrored by its Durable Object with each change of status (in the same UPDATE, so no row
-- more is written): counts, URLs pending and the estimated cost, as JSON. The crawl list reads it for ended crawls;
-- running ones are asked live.
ALTER TABLE crawls ADD COLUMN summary TEXT;
