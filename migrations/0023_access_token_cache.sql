-- What an access token resolves to (its row, its grant, its user) is kept in memory by token hash;
-- this version moves on every change that could alter or end such a resolution. New rows need
-- no move: only found tokens are kept, and never from inside an open transaction.
INSERT INTO `cache_versions` (`name`, `version`) VALUES ('access_tokens', 0);
--> statement-breakpoint
CREATE TRIGGER `access_tokens_version_update` AFTER UPDATE ON `access_tokens` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'access_tokens'; END;
--> statement-breakpoint
CREATE TRIGGER `access_tokens_version_delete` AFTER DELETE ON `access_tokens` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'access_tokens'; END;
--> statement-breakpoint
CREATE TRIGGER `oauth_grants_version_update` AFTER UPDATE ON `oauth_grants` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'access_tokens'; END;
--> statement-breakpoint
CREATE TRIGGER `oauth_grants_version_delete` AFTER DELETE ON `oauth_grants` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'access_tokens'; END;
--> statement-breakpoint
CREATE TRIGGER `users_version_update` AFTER UPDATE ON `users` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'access_tokens'; END;
--> statement-breakpoint
CREATE TRIGGER `users_version_delete` AFTER DELETE ON `users` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'access_tokens'; END;
