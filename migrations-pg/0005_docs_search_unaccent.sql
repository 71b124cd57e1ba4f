-- The docs search finds words without their accents ("cafe" finds "café"), as SQLite's FTS5 table
-- does (tokenize = 'unicode61 remove_diacritics 2', migrations/0018_docs_search_fts.sql), which
-- 0002_docs_search.sql's 'simple' configuration did not. PostgreSQL's own way: the unaccent
-- dictionary (contrib, a trusted extension: the database's owner may create it) ahead of 'simple',
-- in a configuration of its own, cairn_docs. The search and its snippets (src/docs/search/search.repo.ts)
-- read the words through it too, so ts_headline marks "café" for "cafe". Only the word types that can
-- hold a non-ASCII letter go through unaccent; ASCII words have no accent to take off.
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE TEXT SEARCH CONFIGURATION cairn_docs (COPY = simple);
ALTER TEXT SEARCH CONFIGURATION cairn_docs ALTER MAPPING FOR word, numword, hword, numhword, hword_part, hword_numpart WITH unaccent, simple;
-- PostgreSQL 15 cannot change a generated column's expression: the column (and its index) is made again.
ALTER TABLE "docs_search" DROP COLUMN "document";
ALTER TABLE "docs_search" ADD COLUMN "document" tsvector GENERATED ALWAYS AS (
	setweight(to_tsvector('cairn_docs', coalesce("title", '')), 'A') || setweight(to_tsvector('cairn_docs', coalesce("body", '')), 'B')
) STORED;
CREATE INDEX "docs_search_document_idx" ON "docs_search" USING gin ("document");
