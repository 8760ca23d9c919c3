-- Two outcome codes split off others (issue 43), so that a crawl's reach reads codes alone: 408 and 429 at the end of a
-- URL's attempts are 'rate_limited' (the site asked to come back later; 'http_4xx' is an answer about the page), and a
-- 401 or 403 to a request sent with credentials is 'credentials_refused' ('auth_required' is a 401 without them).
-- LEGACY, once: rows written before the split get theirs from their status or their reason's words, as the crawler
-- wrote them up to this migration.
UPDATE errors SET code = 'rate_limited'
WHERE code = 'http_4xx' AND (http_status IN (408, 429) OR reason IN ('http 408', 'http 429'));
UPDATE errors SET code = 'credentials_refused'
WHERE code = 'auth_required' AND reason LIKE 'credentials refused%';
