import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../../identity/users/users.table.ts";
import { oauthClients } from "../clients/clients.table.ts";

/** RFC 8628 device authorization requests (spec 1 section 3.1): pending, then approved or denied. */
export const deviceAuthorizations = sqliteTable(
  "device_authorizations",
  {
    /** SHA-256 of the device code the client polls with. */
    deviceCodeHash: text("device_code_hash").primaryKey(),
    /** Normalised (upper case, no dash); unique among stored requests: a start that draws a taken one draws again. */
    userCode: text("user_code").notNull().unique(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    scopes: text("scopes", { mode: "json" }).$type<string[]>().notNull(),
    codeChallenge: text("code_challenge"),
    /** RFC 8707 resources named by the device. */
    resources: text("resources", { mode: "json" }).$type<string[]>().notNull().default([]),
    status: text("status", { enum: ["pending", "approved", "denied"] }).notNull(),
    /** Seconds between polls; raised by 5 on every slow_down (RFC 8628 section 3.5). */
    interval: integer("interval").notNull(),
    lastPolledAt: integer("last_polled_at"),
    /** Who approved, from which sign-in: the grant's subject and its auth_time, amr, acr and sid. */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    sid: text("sid"),
    authTime: integer("auth_time"),
    amr: text("amr", { mode: "json" }).$type<string[]>(),
    acr: text("acr"),
    expiresAt: integer("expires_at").notNull(),
    /** Set when the approved request is redeemed for tokens: once. */
    consumedAt: integer("consumed_at"),
  },
  // The ceilings on stored requests count per client and in all; the sweep deletes by expiry.
  (t) => [index("device_authorizations_client_idx").on(t.clientId, t.expiresAt), index("device_authorizations_expires_idx").on(t.expiresAt)],
);
