import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// The admin search's expression indexes (name, last word, email domain) are in migration 0037: drizzle cannot spell them.
export const users = sqliteTable("users", {
  id: text("id").primaryKey(), // UUID: the stable `sub`
  username: text("username").notNull().unique(),
  /** Normalized (trimmed, lowercased) so that uniqueness holds for every spelling. */
  email: text("email").notNull().unique(),
  emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
  name: text("name").notNull().default(""),
  pictureUrl: text("picture_url").notNull().default(""),
  passwordHash: text("password_hash").notNull(),
  role: text("role", { enum: ["admin", "user"] }).notNull(),
  disabledAt: integer("disabled_at"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export type UserRow = typeof users.$inferSelect;
