import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Who did what: membership, role, group and admin changes. Kept when the actors are gone. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    actorUserId: text("actor_user_id"),
    action: text("action").notNull(),
    teamId: text("team_id"),
    targetUserId: text("target_user_id"),
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index("audit_log_team_idx").on(t.teamId, t.id)],
);
