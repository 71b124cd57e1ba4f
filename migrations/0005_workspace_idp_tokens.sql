ALTER TABLE `ws_sessions` ADD `idp_access_token_sealed` text;--> statement-breakpoint
ALTER TABLE `ws_sessions` ADD `idp_refresh_token_sealed` text;--> statement-breakpoint
ALTER TABLE `ws_sessions` ADD `idp_access_expires_at` integer;