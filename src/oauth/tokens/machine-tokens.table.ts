import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { oauthClients } from "../clients/clients.table.ts";
import { legacyTokenIndex, tokenKeyColumns } from "./tokens.table.ts";

/**
 * Access tokens of the client credentials grant: the client acts for itself, no user behind it
 * (`sub` is the client). Kept apart from user tokens, which every user resource resolves.
 */
export const machineTokens = sqliteTable(
  "machine_access_tokens",
  {
    ...tokenKeyColumns(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    audience: text("audience", { mode: "json" }).$type<string[]>().notNull().default([]),
    jkt: text("jkt"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    index("machine_access_tokens_client_idx").on(t.clientId, t.expiresAt),
    legacyTokenIndex("machine_access_tokens_legacy_idx", t),
    index("machine_access_tokens_expires_idx").on(t.expiresAt),
  ],
);
