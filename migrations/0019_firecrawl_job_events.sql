-- The Firecrawl webhook events a job asked for (its `webhook.events`: started, page, completed, failed; JSON), so that
-- an ending is sent as crawl.completed or crawl.failed only when that one was asked for (docs/firecrawl.md). NULL:
-- every event (no filter given, or a job started before this column).
ALTER TABLE firecrawl_jobs ADD COLUMN events TEXT;
