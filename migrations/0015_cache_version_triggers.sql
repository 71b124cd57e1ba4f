-- Caches of these tables in memory (clients, signing keys) compare this value; see cache-versions.table.ts.
INSERT INTO `cache_versions` (`name`, `version`) VALUES ('oauth_clients', 0), ('signing_keys', 0);
--> statement-breakpoint
CREATE TRIGGER `oauth_clients_version_insert` AFTER INSERT ON `oauth_clients` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'oauth_clients'; END;
--> statement-breakpoint
CREATE TRIGGER `oauth_clients_version_update` AFTER UPDATE ON `oauth_clients` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'oauth_clients'; END;
--> statement-breakpoint
CREATE TRIGGER `oauth_clients_version_delete` AFTER DELETE ON `oauth_clients` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'oauth_clients'; END;
--> statement-breakpoint
CREATE TRIGGER `signing_keys_version_insert` AFTER INSERT ON `signing_keys` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'signing_keys'; END;
--> statement-breakpoint
CREATE TRIGGER `signing_keys_version_update` AFTER UPDATE ON `signing_keys` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'signing_keys'; END;
--> statement-breakpoint
CREATE TRIGGER `signing_keys_version_delete` AFTER DELETE ON `signing_keys` BEGIN UPDATE `cache_versions` SET `version` = random() WHERE `name` = 'signing_keys'; END;
