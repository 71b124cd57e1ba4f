import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Webhook deliveries received (the admin page lists the last ones); the id and the digest make a redelivery or a replay a no-op. */
export const docsWebhookDeliveries = sqliteTable(
  "docs_webhook_deliveries",
  {
    /** The hosting service's delivery id (X-GitHub-Delivery), or one made up when it sent none. */
    id: text("id").primaryKey(),
    event: text("event").notNull(),
    repository: text("repository"),
    receivedAt: integer("received_at").notNull(),
    /** What was answered, as text: `invalidated 3`, `repo not configured`, `other branch`... */
    result: text("result").notNull(),
    invalidated: integer("invalidated").notNull().default(0),
    /**
     * A processed push's body, as what its signature covers (hex HMAC-SHA256 with the secret,
     * SHA-256 without one): the same body is processed once, whatever delivery id it comes with.
     */
    digest: text("digest"),
  },
  (t) => [uniqueIndex("docs_webhook_deliveries_digest_idx").on(t.digest), index("docs_webhook_deliveries_received_idx").on(t.receivedAt)],
);
