-- A schedule's crawl config is called config, as it is in crawls (it was called request).
ALTER TABLE schedules RENAME COLUMN request TO config;
