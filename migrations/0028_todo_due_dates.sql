ALTER TABLE `todos` ADD `due_date` text;--> statement-breakpoint
ALTER TABLE `todos` ADD `due_time` text;--> statement-breakpoint
CREATE INDEX `todos_due_idx` ON `todos` (`team_id`,`due_date`);