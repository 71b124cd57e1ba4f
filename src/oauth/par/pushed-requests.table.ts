import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { oauthClients } from "../clients/clients.table.ts";

/** RFC 9126: authorization requests pushed by their client, taken once by `request_uri`. */
export const pushedRequests = sqliteTable(
  "pushed_authorization_requests",
  {
    /** The random part of `urn:ietf:params:oauth:request_uri:<id>`. */
    id: text("id").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    /** The authorization parameters as pushed (without client authentication). */
    params: text("params", { mode: "json" }).$type<[string, string][]>().notNull(),
    expiresAt: integer("expires_at").notNull(),
    consumedAt: integer("consumed_at"),
  },
  // The ceilings on stored requests count per client and in all; the sweep deletes by expiry.
  (t) => [index("pushed_authorization_requests_client_idx").on(t.clientId, t.expiresAt), index("pushed_authorization_requests_expires_idx").on(t.expiresAt)],
);
