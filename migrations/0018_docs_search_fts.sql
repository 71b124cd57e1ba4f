-- The docs site's full-text index (spec 3 section 8: rebuilt when older than about 20 minutes).
-- source_id, locale and path are kept, not indexed; title and body are searched.
CREATE VIRTUAL TABLE `docs_search` USING fts5(`source_id` UNINDEXED, `locale` UNINDEXED, `path` UNINDEXED, `title`, `body`, tokenize = 'unicode61 remove_diacritics 2');
