import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Share links (spec 2 section 2.4). The token is kept as a SHA-256 hash (the lookup) and sealed
 * with the instance key (so managers can copy the link again): a read of the database alone
 * hands out no working link. `setDeletedAt` marks links whose set was deleted: they answer
 * `Set not found` for good, even if a set with the same id is imported later.
 */
export const shareLinks = sqliteTable(
  "share_links",
  {
    id: text("id").primaryKey(),
    teamId: text("team_id").notNull(),
    setId: text("set_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    tokenSealed: text("token_sealed").notNull(),
    name: text("name").notNull().default(""),
    canView: integer("can_view", { mode: "boolean" }).notNull().default(true),
    canCreate: integer("can_create", { mode: "boolean" }).notNull().default(false),
    canEdit: integer("can_edit", { mode: "boolean" }).notNull().default(false),
    canComplete: integer("can_complete", { mode: "boolean" }).notNull().default(false),
    canDelete: integer("can_delete", { mode: "boolean" }).notNull().default(false),
    canComment: integer("can_comment", { mode: "boolean" }).notNull().default(false),
    canReorder: integer("can_reorder", { mode: "boolean" }).notNull().default(false),
    /** Normalised: trimmed, lower-case, comma-separated; empty = anyone with the link. */
    allowedEmails: text("allowed_emails").notNull().default(""),
    /** Issue 44: a listed address opens the link only with a one-time code mailed to it. */
    requireEmailCode: integer("require_email_code", { mode: "boolean" }).notNull().default(false),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    setDeletedAt: integer("set_deleted_at"),
  },
  (t) => [uniqueIndex("share_links_token_idx").on(t.tokenHash), index("share_links_team_set_idx").on(t.teamId, t.setId)],
);
