-- A near-duplicate's similarity to the page its content is stored under (duplicates: "similar"): 1 - the bits its text's
-- sketch differs in / 64 (docs/similarity.md); NULL for every other page. A near-duplicate keeps duplicate_reason
-- 'content' (the column's CHECK knows no other), and the API reads it back as 'similar' by its similarity
-- (src/storage/d1/page-rows.ts).
ALTER TABLE pages ADD COLUMN similarity REAL;
