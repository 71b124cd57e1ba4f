CREATE TABLE `device_authorizations` (
	`device_code_hash` text PRIMARY KEY NOT NULL,
	`user_code` text NOT NULL,
	`client_id` text NOT NULL,
	`scopes` text NOT NULL,
	`code_challenge` text,
	`status` text NOT NULL,
	`interval` integer NOT NULL,
	`last_polled_at` integer,
	`user_id` text,
	`sid` text,
	`auth_time` integer,
	`amr` text,
	`acr` text,
	`expires_at` integer NOT NULL,
	`consumed_at` integer,
	FOREIGN KEY (`client_id`) REFERENCES `oauth_clients`(`client_id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `device_authorizations_user_code_unique` ON `device_authorizations` (`user_code`);