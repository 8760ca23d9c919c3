-- Bodies are written to R2 in segments: one object per consumer batch holding every body of the batch back
-- to back (one R2 write instead of one per page). A page's body is the byte range [body_offset,
-- body_offset + body_length) of the object r2_key; NULL offsets (rows written before this) mean the whole object.
ALTER TABLE pages ADD COLUMN body_offset INTEGER;
ALTER TABLE pages ADD COLUMN body_length INTEGER;
