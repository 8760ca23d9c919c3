-- The language model's answers (formats json and summary, docs/models.md), by what it was asked: the SHA-256 of the
-- provider, the model, the messages (the page's markdown, the schema, the prompt) and the answer's schema
-- (src/domain/model/cache-key.ts). A page read again with the same content, schema, prompt and model (a recrawl, a
-- re-extraction, the page cache, another crawl) is given this answer instead of a call. One row per answer;
-- reading one writes nothing. Rows older than the retention (jobs/purge.ts) are deleted by the cron.
CREATE TABLE model_answers (
  key TEXT PRIMARY KEY,
  model TEXT NOT NULL,
  answer TEXT NOT NULL,
  created_at INTEGER NOT NULL
) WITHOUT ROWID;
