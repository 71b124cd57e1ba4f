CREATE TABLE `docs_cache` (
	`source_id` text NOT NULL,
	`kind` text NOT NULL,
	`locale` text NOT NULL,
	`path` text NOT NULL,
	`value` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`source_id`, `kind`, `locale`, `path`),
	FOREIGN KEY (`source_id`) REFERENCES `docs_sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `docs_cache_expiry_idx` ON `docs_cache` (`expires_at`);--> statement-breakpoint
CREATE TABLE `docs_diagrams` (
	`key` text PRIMARY KEY NOT NULL,
	`svg` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `docs_search_builds` (
	`source_id` text NOT NULL,
	`locale` text NOT NULL,
	`built_at` integer NOT NULL,
	PRIMARY KEY(`source_id`, `locale`),
	FOREIGN KEY (`source_id`) REFERENCES `docs_sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `docs_sources` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`full_name` text,
	`branch` text DEFAULT 'main' NOT NULL,
	`docs_root` text DEFAULT 'docs' NOT NULL,
	`api_base` text DEFAULT 'https://api.github.com' NOT NULL,
	`token_sealed` text,
	`local_path` text,
	`locales` text DEFAULT '[]' NOT NULL,
	`default_locale` text DEFAULT 'en' NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `docs_sources_slug_unique` ON `docs_sources` (`slug`);--> statement-breakpoint
CREATE TABLE `docs_webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`event` text NOT NULL,
	`repository` text,
	`received_at` integer NOT NULL,
	`result` text NOT NULL,
	`invalidated` integer DEFAULT 0 NOT NULL
);
