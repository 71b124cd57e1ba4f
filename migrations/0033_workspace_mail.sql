CREATE TABLE `due_digests_sent` (
	`user_id` text NOT NULL,
	`local_date` text NOT NULL,
	`todo_count` integer NOT NULL,
	`sent_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `local_date`)
);
--> statement-breakpoint
CREATE TABLE `share_email_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`link_id` text NOT NULL,
	`email` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`consumed_at` integer,
	FOREIGN KEY (`link_id`) REFERENCES `share_links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `share_email_codes_link_email_idx` ON `share_email_codes` (`link_id`,`email`);--> statement-breakpoint
CREATE INDEX `share_email_codes_expires_idx` ON `share_email_codes` (`expires_at`);--> statement-breakpoint
ALTER TABLE `ws_sessions` ADD `email_verified` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `ws_sessions_user_idx` ON `ws_sessions` (`user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `share_links` ADD `require_email_code` integer DEFAULT false NOT NULL;