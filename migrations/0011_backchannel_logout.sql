CREATE TABLE `backchannel_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`sub` text NOT NULL,
	`sid` text NOT NULL,
	`jti` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`delivered_at` integer,
	FOREIGN KEY (`client_id`) REFERENCES `oauth_clients`(`client_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `backchannel_deliveries_due_idx` ON `backchannel_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `backchannel_deliveries_client_idx` ON `backchannel_deliveries` (`client_id`,`created_at`);