CREATE TABLE `forward_auth_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`host` text NOT NULL,
	`path_prefixes` text NOT NULL,
	`methods` text NOT NULL,
	`allow` text NOT NULL,
	`require_mfa` integer NOT NULL,
	`bypass_paths` text NOT NULL,
	`headers` text NOT NULL,
	`position` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `forward_auth_rules_position_idx` ON `forward_auth_rules` (`position`,`created_at`);
--> statement-breakpoint
-- Every process keeps the rules compiled in memory (forward-auth/rules/rules.cache.ts) and compares this value; see cache-versions.table.ts.
INSERT INTO `cache_versions` (`name`, `version`) VALUES ('forward_auth_rules', 0);
--> statement-breakpoint
CREATE TRIGGER `forward_auth_rules_version_insert` AFTER INSERT ON `forward_auth_rules` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_rules'; END;
--> statement-breakpoint
CREATE TRIGGER `forward_auth_rules_version_update` AFTER UPDATE ON `forward_auth_rules` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_rules'; END;
--> statement-breakpoint
CREATE TRIGGER `forward_auth_rules_version_delete` AFTER DELETE ON `forward_auth_rules` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'forward_auth_rules'; END;
