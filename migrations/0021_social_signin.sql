CREATE TABLE `identity_providers` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`issuer` text DEFAULT '' NOT NULL,
	`web_url` text DEFAULT '' NOT NULL,
	`api_url` text DEFAULT '' NOT NULL,
	`client_id` text NOT NULL,
	`client_secret_sealed` text,
	`scopes` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`trust_email` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `identity_providers_slug_unique` ON `identity_providers` (`slug`);--> statement-breakpoint
CREATE TABLE `social_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`provider_user_id` text NOT NULL,
	`login` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`provider_id`) REFERENCES `identity_providers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `social_accounts_provider_user_idx` ON `social_accounts` (`provider_id`,`provider_user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `social_accounts_user_provider_idx` ON `social_accounts` (`user_id`,`provider_id`);--> statement-breakpoint
CREATE TABLE `social_login_states` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`provider_id` text NOT NULL,
	`browser_hash` text NOT NULL,
	`nonce` text NOT NULL,
	`code_verifier` text NOT NULL,
	`return_to` text NOT NULL,
	`link_user_id` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`consumed_at` integer,
	FOREIGN KEY (`provider_id`) REFERENCES `identity_providers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`link_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `social_login_states_expires_idx` ON `social_login_states` (`expires_at`);--> statement-breakpoint
ALTER TABLE `mfa_tokens` ADD `first_factor` text DEFAULT 'pwd' NOT NULL;