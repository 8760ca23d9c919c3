-- Duplicates (docs/crawling.md, "Duplicates"): a page whose rel=canonical names another URL of the crawl, or whose
-- content another page of the crawl had first, keeps a small row (no body, record or links) naming that URL and why:
-- 'canonical' or 'content'. NULL: the page is not a duplicate. No index: listings filter the crawl's rows in URL order.
ALTER TABLE pages ADD COLUMN duplicate_of TEXT;
ALTER TABLE pages ADD COLUMN duplicate_reason TEXT CHECK (duplicate_reason IN ('canonical', 'content'));
