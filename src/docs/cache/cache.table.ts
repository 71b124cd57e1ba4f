import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { docsSources } from "../sources/sources.table.ts";

/**
 * The docs site's caches (spec 3 sections 4.4 and 8), in the database so that every worker shares
 * them and a push invalidates them once for all: raw Markdown, last-updated metadata, rendered
 * HTML per locale, sidebars per locale (a row per folder: its pages and its part of the sidebar),
 * the repository tree, repository files (images), each file's sidebar facts (`facts`, valid while
 * its version holds) and what the search index holds of each page (`indexed`, kept with it).
 * `locale` and `path` are "" where a kind has none.
 */
export const docsCache = sqliteTable(
  "docs_cache",
  {
    sourceId: text("source_id")
      .notNull()
      .references(() => docsSources.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["raw", "meta", "html", "sidebar", "tree", "file", "translation", "facts", "indexed"] }).notNull(),
    locale: text("locale").notNull(),
    path: text("path").notNull(),
    value: text("value").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /** The hosting service's ETag of what `value` was made from: an expired entry is revalidated with it (a 304 costs no rate limit). */
    etag: text("etag"),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.kind, t.locale, t.path] }), index("docs_cache_expiry_idx").on(t.expiresAt)],
);

/** Diagram renders, keyed by their encoded source (so an edit makes a new key): kept 7 days whatever is pushed. */
export const docsDiagrams = sqliteTable(
  "docs_diagrams",
  {
    key: text("key").primaryKey(),
    svg: text("svg").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("docs_diagrams_expires_idx").on(t.expiresAt)],
);

/** When each (source, locale) full-text index was built; the index itself is the FTS5 table docs_search (migration 0018). */
export const docsSearchBuilds = sqliteTable(
  "docs_search_builds",
  {
    sourceId: text("source_id")
      .notNull()
      .references(() => docsSources.id, { onDelete: "cascade" }),
    locale: text("locale").notNull(),
    builtAt: integer("built_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.locale] })],
);
