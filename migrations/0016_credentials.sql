-- Crawls behind a login (docs/credentials.md). A crawl's credentials are kept in its config, sealed (AES-GCM with a key
-- derived from the CREDENTIALS_KEY secret): names shown, values never. credentialed = 1 marks a crawl whose pages were
-- fetched with credentials: the page cache never offers them to another crawl or scrape (storage/d1/page-cache.ts).
ALTER TABLE crawls ADD COLUMN credentialed INTEGER NOT NULL DEFAULT 0;
