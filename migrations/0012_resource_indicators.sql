ALTER TABLE `device_authorizations` ADD `resources` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `access_tokens` ADD `audience` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `authorization_codes` ADD `resources` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `oauth_grants` ADD `resources` text DEFAULT '[]' NOT NULL;