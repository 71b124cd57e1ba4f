import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { sessions } from "../../identity/sessions/sessions.table.ts";
import { oauthClients } from "../clients/clients.table.ts";

/**
 * The clients that got tokens in a sign-in session: who is sent a back-channel logout when it ends.
 * Kept apart from grants, which are purged once their tokens end while the session may go on for
 * weeks; one row per session and client, gone with either.
 */
export const sessionClients = sqliteTable(
  "session_clients",
  {
    sid: text("sid")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.sid, t.clientId] })],
);
