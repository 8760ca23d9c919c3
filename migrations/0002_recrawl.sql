-- Scheduled recrawls: validators for conditional GET, what changed since the previous crawl, schedules.
ALTER TABLE pages ADD COLUMN etag TEXT;
ALTER TABLE pages ADD COLUMN last_modified TEXT;
-- 'new' (not in the previous crawl), 'changed' (fetched again), 'unchanged' (304); NULL outside schedules.
ALTER TABLE pages ADD COLUMN change TEXT;

ALTER TABLE crawls ADD COLUMN schedule_id TEXT;
ALTER TABLE crawls ADD COLUMN previous_crawl_id TEXT;

CREATE TABLE schedules (
  id            TEXT PRIMARY KEY,
  cron          TEXT,                 -- 5-field cron expression (UTC), or
  every_seconds INTEGER,              -- a fixed period
  request       TEXT NOT NULL,        -- JSON of the validated crawl request
  created_at    INTEGER NOT NULL,
  next_run_at   INTEGER NOT NULL,     -- epoch ms
  last_run_at   INTEGER,
  last_crawl_id TEXT,
  CHECK ((cron IS NULL) <> (every_seconds IS NULL))
);
CREATE INDEX schedules_due ON schedules (next_run_at);
