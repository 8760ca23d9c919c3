-- Outgoing links live in R2 beside each page's body (0006): a page whose links_key is NULL has no links. The links
-- table, kept until now for pages written before 0006 and no longer read, goes (nothing else used it: no index, no
-- view, no trigger).
DROP TABLE links;
