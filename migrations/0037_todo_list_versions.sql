-- Issue 43. Each set's list version and top-level counts (sets.table.ts), kept by triggers in the
-- transaction of every write that changes what the set's list shows: its todos (inserts, edits,
-- moves between sets, renews, imports, deletes, cascades), their assignees and comments, and the
-- member names of its team. random(), as cache_versions (0015): a value never seen before.
UPDATE `todo_sets` SET
  `list_version` = random(),
  `top_total` = (SELECT count(*) FROM `todos` WHERE `todos`.`set_id` = `todo_sets`.`id` AND `todos`.`parent_id` IS NULL),
  `top_completed` = (SELECT count(*) FROM `todos` WHERE `todos`.`set_id` = `todo_sets`.`id` AND `todos`.`parent_id` IS NULL AND `todos`.`completed` = 1);
--> statement-breakpoint
CREATE TRIGGER `todos_list_insert` AFTER INSERT ON `todos` BEGIN
  UPDATE `todo_sets` SET `list_version` = random(), `top_total` = `top_total` + (NEW.`parent_id` IS NULL),
    `top_completed` = `top_completed` + (NEW.`parent_id` IS NULL AND NEW.`completed` = 1) WHERE `id` = NEW.`set_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `todos_list_delete` AFTER DELETE ON `todos` BEGIN
  UPDATE `todo_sets` SET `list_version` = random(), `top_total` = `top_total` - (OLD.`parent_id` IS NULL),
    `top_completed` = `top_completed` - (OLD.`parent_id` IS NULL AND OLD.`completed` = 1) WHERE `id` = OLD.`set_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `todos_list_update` AFTER UPDATE ON `todos` BEGIN
  UPDATE `todo_sets` SET `list_version` = random(), `top_total` = `top_total` - (OLD.`parent_id` IS NULL),
    `top_completed` = `top_completed` - (OLD.`parent_id` IS NULL AND OLD.`completed` = 1) WHERE `id` = OLD.`set_id`;
  UPDATE `todo_sets` SET `list_version` = random(), `top_total` = `top_total` + (NEW.`parent_id` IS NULL),
    `top_completed` = `top_completed` + (NEW.`parent_id` IS NULL AND NEW.`completed` = 1) WHERE `id` = NEW.`set_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `todo_assignees_list_insert` AFTER INSERT ON `todo_assignees` BEGIN
  UPDATE `todo_sets` SET `list_version` = random() WHERE `id` = (SELECT `set_id` FROM `todos` WHERE `id` = NEW.`todo_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `todo_assignees_list_delete` AFTER DELETE ON `todo_assignees` BEGIN
  UPDATE `todo_sets` SET `list_version` = random() WHERE `id` = (SELECT `set_id` FROM `todos` WHERE `id` = OLD.`todo_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `todo_comments_list_insert` AFTER INSERT ON `todo_comments` BEGIN
  UPDATE `todo_sets` SET `list_version` = random() WHERE `id` = (SELECT `set_id` FROM `todos` WHERE `id` = NEW.`todo_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `todo_comments_list_delete` AFTER DELETE ON `todo_comments` BEGIN
  UPDATE `todo_sets` SET `list_version` = random() WHERE `id` = (SELECT `set_id` FROM `todos` WHERE `id` = OLD.`todo_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `member_cache_list_insert` AFTER INSERT ON `workspace_member_cache` BEGIN
  UPDATE `todo_sets` SET `list_version` = random() WHERE `team_id` = NEW.`team_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `member_cache_list_update` AFTER UPDATE ON `workspace_member_cache`
WHEN OLD.`name` IS NOT NEW.`name` OR OLD.`username` IS NOT NEW.`username` OR OLD.`avatar_url` IS NOT NEW.`avatar_url` OR OLD.`team_id` IS NOT NEW.`team_id` BEGIN
  UPDATE `todo_sets` SET `list_version` = random() WHERE `team_id` IN (OLD.`team_id`, NEW.`team_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `member_cache_list_delete` AFTER DELETE ON `workspace_member_cache` BEGIN
  UPDATE `todo_sets` SET `list_version` = random() WHERE `team_id` = OLD.`team_id`;
END;
--> statement-breakpoint
-- The admin's user search (identity/admin/users-search.ts): prefix ranges on the name, on its last
-- word and on the email's domain (from its "@"); username and email have their unique indexes.
-- Expressions drizzle's schema cannot spell, so they live here only.
CREATE INDEX `users_name_prefix_idx` ON `users` (lower(`name`));
--> statement-breakpoint
CREATE INDEX `users_last_word_prefix_idx` ON `users` (lower(substr(`name`, length(rtrim(`name`, replace(`name`, ' ', ''))) + 1)));
--> statement-breakpoint
CREATE INDEX `users_email_domain_idx` ON `users` (substr(`email`, instr(`email`, '@')));
