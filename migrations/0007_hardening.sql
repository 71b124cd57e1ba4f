ALTER TABLE `ws_sessions` ADD `idp_sid` text;--> statement-breakpoint
ALTER TABLE `ws_sessions` ADD `validated_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `webauthn_challenges_expires_idx` ON `webauthn_challenges` (`expires_at`);--> statement-breakpoint
CREATE INDEX `oauth_interactions_expires_idx` ON `oauth_interactions` (`expires_at`);--> statement-breakpoint
CREATE INDEX `ws_login_states_expires_idx` ON `ws_login_states` (`expires_at`);--> statement-breakpoint
-- Workspace sessions were keyed by the cookie's value itself; now by its SHA-256 (64 hex digits).
-- The old rows are ended: their browsers sign in again through the IdP, which is one redirect.
DELETE FROM `ws_sessions` WHERE length(`id`) <> 64;
