-- The HTTP exchange of a page's fetch (the request as made, the response's status line and headers as received), kept
-- beside its body in the chunk's segment for WARC exports (docs/rendering.md, "WARC"): a byte range in the body's
-- object (r2_key), so two integers a row. NULL: not recorded (a page from the page cache, a 304, older rows).
ALTER TABLE pages ADD COLUMN exchange_offset INTEGER;
ALTER TABLE pages ADD COLUMN exchange_length INTEGER;
