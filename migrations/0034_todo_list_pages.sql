ALTER TABLE `todo_sets` ADD `list_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `todo_sets` ADD `top_total` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `todo_sets` ADD `top_completed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `todos_sibling_title_idx` ON `todos` (`set_id`,`parent_id`,`title`);--> statement-breakpoint
CREATE INDEX `todos_set_created_idx` ON `todos` (`set_id`,`created_at`,`id`);