import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * A documentation source (spec 3 section 1.3): a repository on a GitHub-compatible hosting service,
 * followed by the push webhook, or a folder on this machine, read again on restart; or Cairn's own
 * guide, carried in the executable (`builtin`, one row made at boot: src/docs/guide).
 */
export const docsSources = sqliteTable("docs_sources", {
  id: text("id").primaryKey(),
  /** The site's URL segment: /docs/<slug>/... */
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  kind: text("kind", { enum: ["github", "local", "builtin"] }).notNull(),
  /** owner/repo, lowercased: what a push's repository.full_name is matched against. */
  fullName: text("full_name"),
  branch: text("branch").notNull().default("main"),
  /** The folder of the Markdown files inside the repository ("" for its root). */
  docsRoot: text("docs_root").notNull().default("docs"),
  /** The hosting service's REST API (GitHub Enterprise and compatible services have their own). */
  apiBase: text("api_base").notNull().default("https://api.github.com"),
  /** An access token for private repositories, sealed; never answered. */
  tokenSealed: text("token_sealed"),
  localPath: text("local_path"),
  /** Locale folders under the docs root (each a full tree; missing pages fall back to `defaultLocale`); empty: no locale folders. */
  locales: text("locales", { mode: "json" }).$type<string[]>().notNull().default([]),
  defaultLocale: text("default_locale").notNull().default("en"),
  createdAt: integer("created_at").notNull(),
});

export type DocsSourceRow = typeof docsSources.$inferSelect;
