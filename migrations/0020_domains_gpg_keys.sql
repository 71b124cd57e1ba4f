CREATE TABLE `user_domains` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`domain` text NOT NULL,
	`token` text NOT NULL,
	`verified_at` integer,
	`last_checked_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_domains_user_idx` ON `user_domains` (`user_id`);--> statement-breakpoint
CREATE INDEX `user_domains_domain_idx` ON `user_domains` (`domain`);--> statement-breakpoint
CREATE TABLE `gpg_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`fingerprint` text NOT NULL,
	`key_id` text NOT NULL,
	`user_ids` text NOT NULL,
	`algorithm` text NOT NULL,
	`expires_at` integer,
	`armored` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `gpg_keys_user_idx` ON `gpg_keys` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `gpg_keys_user_fingerprint_idx` ON `gpg_keys` (`user_id`,`fingerprint`);