CREATE TABLE `cache_versions` (
	`name` text PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
