-- Issue 12: token rows keyed by an id the token carries (`<kind><id>.<secret>`), so inserts
-- append instead of landing at random places in a hash index; no foreign key to the grant, so no
-- grant_id index either (every use looks the grant up). Tokens issued before are kept, marked
-- legacy, and found by their hash through a partial index that new rows never enter.
CREATE TABLE `__new_access_tokens` (
	`id` integer PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`legacy` integer DEFAULT false NOT NULL,
	`grant_id` text NOT NULL,
	`client_id` text NOT NULL,
	`user_id` text NOT NULL,
	`scopes` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`jkt` text,
	`audience` text DEFAULT '[]' NOT NULL,
	FOREIGN KEY (`client_id`) REFERENCES `oauth_clients`(`client_id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_access_tokens`("token_hash", "legacy", "grant_id", "client_id", "user_id", "scopes", "created_at", "expires_at", "jkt", "audience") SELECT "token_hash", 1, "grant_id", "client_id", "user_id", "scopes", "created_at", "expires_at", "jkt", "audience" FROM `access_tokens` ORDER BY rowid;--> statement-breakpoint
DROP TABLE `access_tokens`;--> statement-breakpoint
ALTER TABLE `__new_access_tokens` RENAME TO `access_tokens`;--> statement-breakpoint
CREATE UNIQUE INDEX `access_tokens_legacy_idx` ON `access_tokens` (`token_hash`) WHERE legacy = 1;--> statement-breakpoint
CREATE TABLE `__new_refresh_tokens` (
	`id` integer PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`legacy` integer DEFAULT false NOT NULL,
	`grant_id` text NOT NULL,
	`client_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`superseded_at` integer,
	FOREIGN KEY (`client_id`) REFERENCES `oauth_clients`(`client_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_refresh_tokens`("token_hash", "legacy", "grant_id", "client_id", "created_at", "expires_at", "superseded_at") SELECT "token_hash", 1, "grant_id", "client_id", "created_at", "expires_at", "superseded_at" FROM `refresh_tokens` ORDER BY rowid;--> statement-breakpoint
DROP TABLE `refresh_tokens`;--> statement-breakpoint
ALTER TABLE `__new_refresh_tokens` RENAME TO `refresh_tokens`;--> statement-breakpoint
CREATE UNIQUE INDEX `refresh_tokens_legacy_idx` ON `refresh_tokens` (`token_hash`) WHERE legacy = 1;--> statement-breakpoint
CREATE TABLE `__new_machine_access_tokens` (
	`id` integer PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`legacy` integer DEFAULT false NOT NULL,
	`client_id` text NOT NULL,
	`scopes` text NOT NULL,
	`audience` text DEFAULT '[]' NOT NULL,
	`jkt` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`client_id`) REFERENCES `oauth_clients`(`client_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_machine_access_tokens`("token_hash", "legacy", "client_id", "scopes", "audience", "jkt", "created_at", "expires_at") SELECT "token_hash", 1, "client_id", "scopes", "audience", "jkt", "created_at", "expires_at" FROM `machine_access_tokens` ORDER BY rowid;--> statement-breakpoint
DROP TABLE `machine_access_tokens`;--> statement-breakpoint
ALTER TABLE `__new_machine_access_tokens` RENAME TO `machine_access_tokens`;--> statement-breakpoint
CREATE INDEX `machine_access_tokens_client_idx` ON `machine_access_tokens` (`client_id`,`expires_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `machine_access_tokens_legacy_idx` ON `machine_access_tokens` (`token_hash`) WHERE legacy = 1;--> statement-breakpoint
-- Dropping access_tokens dropped its cache triggers (migration 0023): the same again.
CREATE TRIGGER `access_tokens_version_update` AFTER UPDATE ON `access_tokens` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'access_tokens'; END;
--> statement-breakpoint
CREATE TRIGGER `access_tokens_version_delete` AFTER DELETE ON `access_tokens` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'access_tokens'; END;
