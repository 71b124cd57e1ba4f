import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { oauthClients } from "../clients/clients.table.ts";

/** An authorization request waiting for sign-in or consent (the interaction API). */
export const interactions = sqliteTable(
  "oauth_interactions",
  {
    id: text("id").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    userId: text("user_id"),
    request: text("request", { mode: "json" }).$type<Record<string, string>>().notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    consumedAt: integer("consumed_at"),
  },
  // Anyone may start an authorization: pending ones are capped, counted by expiry.
  (t) => [index("oauth_interactions_expires_idx").on(t.expiresAt)],
);
