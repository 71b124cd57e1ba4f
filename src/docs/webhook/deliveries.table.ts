import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Webhook deliveries received (the admin page lists the last ones); the id makes a redelivery a no-op. */
export const docsWebhookDeliveries = sqliteTable("docs_webhook_deliveries", {
  /** The hosting service's delivery id (X-GitHub-Delivery), or one made up when it sent none. */
  id: text("id").primaryKey(),
  event: text("event").notNull(),
  repository: text("repository"),
  receivedAt: integer("received_at").notNull(),
  /** What was answered, as text: `invalidated 3`, `repo not configured`, `other branch`... */
  result: text("result").notNull(),
  invalidated: integer("invalidated").notNull().default(0),
});
