CREATE TABLE `forward_auth_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `forward_auth_sessions_session_idx` ON `forward_auth_sessions` (`session_id`);--> statement-breakpoint
CREATE INDEX `forward_auth_sessions_expires_idx` ON `forward_auth_sessions` (`expires_at`);
--> statement-breakpoint
-- Forward auth answers each check from memory (forward-auth/check/callers.ts): who a cookie or a personal access
-- token names, and that person's teams, groups and role. This version moves on every change that could alter or
-- end such an answer, so every process drops what it kept at once. New rows need no move: a token is random, so
-- none was known before its row; a new team under one the user is in, a new membership, does change an answer.
INSERT INTO `cache_versions` (`name`, `version`) VALUES ('forward_auth_sessions', 0);
--> statement-breakpoint
CREATE TRIGGER `forward_auth_sessions_version_update` AFTER UPDATE ON `forward_auth_sessions` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `forward_auth_sessions_version_delete` AFTER DELETE ON `forward_auth_sessions` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `sessions_fa_version_update` AFTER UPDATE ON `sessions` WHEN NEW.`revoked_at` IS NOT OLD.`revoked_at` OR NEW.`expires_at` < OLD.`expires_at` OR NEW.`user_id` IS NOT OLD.`user_id` OR NEW.`acr` IS NOT OLD.`acr` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `sessions_fa_version_delete` AFTER DELETE ON `sessions` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `users_fa_version_update` AFTER UPDATE ON `users` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `users_fa_version_delete` AFTER DELETE ON `users` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `teams_fa_version_insert` AFTER INSERT ON `teams` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `teams_fa_version_update` AFTER UPDATE ON `teams` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `teams_fa_version_delete` AFTER DELETE ON `teams` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `team_members_fa_version_insert` AFTER INSERT ON `team_members` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `team_members_fa_version_update` AFTER UPDATE ON `team_members` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `team_members_fa_version_delete` AFTER DELETE ON `team_members` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `team_group_members_fa_version_insert` AFTER INSERT ON `team_group_members` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `team_group_members_fa_version_update` AFTER UPDATE ON `team_group_members` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `team_group_members_fa_version_delete` AFTER DELETE ON `team_group_members` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `team_groups_fa_version_update` AFTER UPDATE ON `team_groups` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `team_groups_fa_version_delete` AFTER DELETE ON `team_groups` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `personal_access_tokens_fa_version_update` AFTER UPDATE ON `personal_access_tokens` WHEN NEW.`revoked_at` IS NOT OLD.`revoked_at` OR NEW.`expires_at` IS NOT OLD.`expires_at` OR NEW.`user_id` IS NOT OLD.`user_id` OR NEW.`token_hash` IS NOT OLD.`token_hash` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
--> statement-breakpoint
CREATE TRIGGER `personal_access_tokens_fa_version_delete` AFTER DELETE ON `personal_access_tokens` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_sessions'; END;
