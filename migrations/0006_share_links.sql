CREATE TABLE `share_links` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`set_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`token_sealed` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`can_view` integer DEFAULT true NOT NULL,
	`can_create` integer DEFAULT false NOT NULL,
	`can_edit` integer DEFAULT false NOT NULL,
	`can_complete` integer DEFAULT false NOT NULL,
	`can_delete` integer DEFAULT false NOT NULL,
	`can_comment` integer DEFAULT false NOT NULL,
	`can_reorder` integer DEFAULT false NOT NULL,
	`allowed_emails` text DEFAULT '' NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`set_deleted_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `share_links_token_idx` ON `share_links` (`token_hash`);--> statement-breakpoint
CREATE INDEX `share_links_team_set_idx` ON `share_links` (`team_id`,`set_id`);