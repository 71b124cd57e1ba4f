CREATE TABLE `todo_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`todo_id` text NOT NULL,
	`team_id` text NOT NULL,
	`user_id` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`todo_id`) REFERENCES `todos`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `todo_comments_todo_idx` ON `todo_comments` (`todo_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `todo_sets` (
	`id` text PRIMARY KEY NOT NULL,
	`team_id` text NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`sort_order` integer NOT NULL,
	`auto_renew` integer DEFAULT false NOT NULL,
	`renew_time` text DEFAULT '00:00' NOT NULL,
	`timezone` text DEFAULT '' NOT NULL,
	`last_renewed_at` integer,
	`split_completed` integer DEFAULT false NOT NULL,
	`permissions` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `todo_sets_team_name_idx` ON `todo_sets` (`team_id`,`name`);--> statement-breakpoint
CREATE INDEX `todo_sets_team_order_idx` ON `todo_sets` (`team_id`,`sort_order`);--> statement-breakpoint
CREATE TABLE `team_settings` (
	`team_id` text PRIMARY KEY NOT NULL,
	`settings` text NOT NULL,
	`permissions` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `user_settings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`settings` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `assigned_expand` (
	`user_id` text NOT NULL,
	`set_id` text NOT NULL,
	`expanded` integer NOT NULL,
	PRIMARY KEY(`user_id`, `set_id`)
);
--> statement-breakpoint
CREATE TABLE `workspace_member_cache` (
	`team_id` text NOT NULL,
	`user_id` text NOT NULL,
	`username` text,
	`name` text,
	`avatar_url` text,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`team_id`, `user_id`)
);
--> statement-breakpoint
CREATE TABLE `todo_assignees` (
	`todo_id` text NOT NULL,
	`user_id` text NOT NULL,
	PRIMARY KEY(`todo_id`, `user_id`),
	FOREIGN KEY (`todo_id`) REFERENCES `todos`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `todo_assignees_user_idx` ON `todo_assignees` (`user_id`);--> statement-breakpoint
CREATE TABLE `todos` (
	`id` text PRIMARY KEY NOT NULL,
	`set_id` text NOT NULL,
	`team_id` text NOT NULL,
	`parent_id` text,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`completed` integer DEFAULT false NOT NULL,
	`sort_order` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`set_id`) REFERENCES `todo_sets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_id`) REFERENCES `todos`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `todos_set_idx` ON `todos` (`set_id`,`parent_id`,`sort_order`);--> statement-breakpoint
CREATE INDEX `todos_parent_idx` ON `todos` (`parent_id`);