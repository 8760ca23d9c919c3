-- Crawl jobs. The crawl's Durable Object holds the live counts and frontier state;
-- this table is the durable index of jobs and their last known status.
CREATE TABLE crawls (
  id          TEXT PRIMARY KEY,
  status      TEXT NOT NULL CHECK (status IN ('running', 'completed', 'cancelled')),
  config      TEXT NOT NULL,            -- JSON of the validated crawl request
  created_at  INTEGER NOT NULL,         -- epoch ms
  updated_at  INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE INDEX crawls_created ON crawls (created_at DESC, id);

-- One row per fetched URL of a crawl (any HTTP status). Keyed by the normalized URL,
-- so a redelivered or re-fetched page overwrites its row instead of duplicating it.
CREATE TABLE pages (
  crawl_id     TEXT NOT NULL,
  url          TEXT NOT NULL,
  status       INTEGER NOT NULL,        -- HTTP status
  content_type TEXT,
  title        TEXT,
  depth        INTEGER NOT NULL,
  bytes        INTEGER NOT NULL,        -- size of the (decompressed) body
  fetched_at   INTEGER NOT NULL,        -- epoch ms
  r2_key       TEXT,                    -- set when the body is stored in R2
  redirect_to  TEXT,                    -- normalized Location of a 3xx
  PRIMARY KEY (crawl_id, url)
) WITHOUT ROWID;

-- Outgoing links of each parsed page (normalized, deduplicated per page).
CREATE TABLE links (
  crawl_id TEXT NOT NULL,
  from_url TEXT NOT NULL,
  to_url   TEXT NOT NULL,
  PRIMARY KEY (crawl_id, from_url, to_url)
) WITHOUT ROWID;

-- URLs that ended failed or skipped, with the reason.
CREATE TABLE errors (
  crawl_id   TEXT NOT NULL,
  url        TEXT NOT NULL,
  outcome    TEXT NOT NULL CHECK (outcome IN ('failed', 'skipped')),
  reason     TEXT NOT NULL,
  attempts   INTEGER NOT NULL,
  http_status INTEGER,
  at         INTEGER NOT NULL,
  PRIMARY KEY (crawl_id, url)
) WITHOUT ROWID;
