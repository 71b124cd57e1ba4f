ALTER TABLE `docs_webhook_deliveries` ADD `digest` text;--> statement-breakpoint
CREATE UNIQUE INDEX `docs_webhook_deliveries_digest_idx` ON `docs_webhook_deliveries` (`digest`);--> statement-breakpoint
CREATE INDEX `docs_webhook_deliveries_received_idx` ON `docs_webhook_deliveries` (`received_at`);