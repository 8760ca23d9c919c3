-- JavaScript rendering (docs/rendering.md): why a page was rendered in a browser ('always', 'screenshot',
-- 'auto: <reason>'; NULL: it was not), and two more byte ranges in the chunk's segment beside the body: the HTML as
-- fetched (the body is then the rendered DOM) and the page's PNG screenshot.
ALTER TABLE pages ADD COLUMN rendered TEXT;
ALTER TABLE pages ADD COLUMN fetched_key TEXT;
ALTER TABLE pages ADD COLUMN fetched_offset INTEGER;
ALTER TABLE pages ADD COLUMN fetched_length INTEGER;
ALTER TABLE pages ADD COLUMN screenshot_key TEXT;
ALTER TABLE pages ADD COLUMN screenshot_offset INTEGER;
ALTER TABLE pages ADD COLUMN screenshot_length INTEGER;
