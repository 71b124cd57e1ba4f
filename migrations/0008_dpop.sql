CREATE TABLE `dpop_proof_jtis` (
	`key` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `oauth_clients` ADD `dpop_bound_access_tokens` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `access_tokens` ADD `jkt` text;--> statement-breakpoint
ALTER TABLE `oauth_grants` ADD `dpop_jkt` text;