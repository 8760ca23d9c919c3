-- Why a URL ended failed or skipped, as one code of OUTCOME_CODES (src/domain/crawl/outcome-codes.ts): given where the
-- outcome is made and stored with its reason, so /stats groups by it whatever the words of the reason (issue 32).
ALTER TABLE errors ADD COLUMN code TEXT;

-- LEGACY, once: rows written before codes were stored get theirs from the words of their reason, as the crawler wrote them
-- up to this migration. The only place a code is read from a reason; new rows carry the code they were made with.
-- What matches nothing is 'other' (and so is a row a Worker older than this writes without one: storage/d1/errors.ts).
UPDATE errors SET code = CASE
  WHEN reason LIKE 'blocked by robots.txt' THEN 'robots_disallowed'
  WHEN reason LIKE 'blocked:%' THEN 'private_address'
  WHEN reason LIKE 'robots.txt%' THEN 'robots_unreachable'
  WHEN reason LIKE 'dns: %' THEN 'dns'
  WHEN reason LIKE 'refused: %' THEN 'connection_refused'
  WHEN reason LIKE 'reset: %' THEN 'connection_reset'
  WHEN reason LIKE 'tls: %' THEN 'tls'
  WHEN reason LIKE 'timeout%' THEN 'timeout'
  WHEN reason LIKE 'network error%' OR reason LIKE 'body read failed%' THEN 'network'
  WHEN reason LIKE 'body larger than %' THEN 'too_large'
  WHEN reason LIKE 'http % without Location' THEN 'redirect_without_location'
  WHEN reason LIKE 'http 4%' THEN 'http_4xx'
  WHEN reason LIKE 'http 5%' THEN 'http_5xx'
  WHEN reason LIKE 'http %' THEN 'http_other'
  WHEN reason LIKE 'redirect to a non-http(s) URL%' THEN 'redirect_invalid'
  WHEN reason LIKE 'redirect % to %, out of scope' THEN 'redirect_out_of_scope'
  WHEN reason LIKE 'redirect %' THEN 'redirect'
  WHEN reason LIKE 'too many redirects%' THEN 'too_many_redirects'
  WHEN reason LIKE 'sitemap: %' THEN 'sitemap_unreadable'
  WHEN reason LIKE 'action % of % (%' THEN 'action_failed'
  WHEN reason LIKE 'the page could not be rendered, so its %' THEN 'render_failed'
  WHEN reason = 'cancelled' THEN 'cancelled'
  WHEN reason LIKE 'dead-lettered%' OR reason = 'retries exhausted' THEN 'retries_exhausted'
  ELSE 'other' END
WHERE code IS NULL;
