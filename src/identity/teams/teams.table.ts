import { type AnySQLiteColumn, foreignKey, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { TEAM_ROLES } from "../../contract/team-roles.ts";
import { users } from "../users/users.table.ts";

export const teams = sqliteTable(
  "teams",
  {
    id: text("id").primaryKey(), // UUID; the workspace's :teamId
    name: text("name").notNull(),
    parentId: text("parent_id").references((): AnySQLiteColumn => teams.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("teams_parent_idx").on(t.parentId)],
);

export const teamMembers = sqliteTable(
  "team_members",
  {
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: TEAM_ROLES }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index("team_members_user_idx").on(t.userId)],
);

export const teamGroups = sqliteTable(
  "team_groups",
  {
    teamId: text("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(), // immutable
    name: text("name").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.slug] })],
);

export const teamGroupMembers = sqliteTable(
  "team_group_members",
  {
    teamId: text("team_id").notNull(),
    slug: text("slug").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.slug, t.userId] }),
    foreignKey({ columns: [t.teamId, t.slug], foreignColumns: [teamGroups.teamId, teamGroups.slug] }).onDelete("cascade"),
  ],
);
