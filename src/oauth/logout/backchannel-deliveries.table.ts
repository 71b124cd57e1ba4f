import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { oauthClients } from "../clients/clients.table.ts";

/**
 * OIDC Back-Channel Logout 1.0: one logout token owed to one client, kept until delivered or given
 * up, so a restart loses none; the app's owner reads it as the delivery log.
 */
export const backchannelDeliveries = sqliteTable(
  "backchannel_deliveries",
  {
    id: text("id").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    /** The token's claims, signed at each attempt (a fresh `iat`, the same `jti`). */
    sub: text("sub").notNull(),
    sid: text("sid").notNull(),
    jti: text("jti").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] }).notNull(),
    attempts: integer("attempts").notNull(),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    deliveredAt: integer("delivered_at"),
  },
  (t) => [
    index("backchannel_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("backchannel_deliveries_client_idx").on(t.clientId, t.createdAt),
    index("backchannel_deliveries_created_idx").on(t.createdAt),
  ],
);
