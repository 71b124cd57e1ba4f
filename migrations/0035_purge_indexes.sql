CREATE TABLE `session_clients` (
	`sid` text NOT NULL,
	`client_id` text NOT NULL,
	PRIMARY KEY(`sid`, `client_id`),
	FOREIGN KEY (`sid`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_id`) REFERENCES `oauth_clients`(`client_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `rate_limit_hits_at_idx` ON `rate_limit_hits` (`at`);--> statement-breakpoint
CREATE INDEX `docs_diagrams_expires_idx` ON `docs_diagrams` (`expires_at`);--> statement-breakpoint
CREATE INDEX `known_devices_last_seen_idx` ON `known_devices` (`last_seen_at`);--> statement-breakpoint
CREATE INDEX `email_verifications_expires_idx` ON `email_verifications` (`expires_at`);--> statement-breakpoint
CREATE INDEX `password_resets_expires_idx` ON `password_resets` (`expires_at`);--> statement-breakpoint
CREATE INDEX `mfa_tokens_expires_idx` ON `mfa_tokens` (`expires_at`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE INDEX `sessions_revoked_idx` ON `sessions` (`revoked_at`);--> statement-breakpoint
CREATE INDEX `mail_outbox_failed_idx` ON `mail_outbox` (`state`,`created_at`);--> statement-breakpoint
CREATE INDEX `pow_stamps_expires_idx` ON `pow_stamps` (`expires_at`);--> statement-breakpoint
CREATE INDEX `sudo_windows_expires_idx` ON `sudo_windows` (`expires_at`);--> statement-breakpoint
CREATE INDEX `two_factor_challenges_expires_idx` ON `two_factor_challenges` (`expires_at`);--> statement-breakpoint
CREATE INDEX `client_assertion_jtis_expires_idx` ON `client_assertion_jtis` (`expires_at`);--> statement-breakpoint
CREATE INDEX `dpop_proof_jtis_expires_idx` ON `dpop_proof_jtis` (`expires_at`);--> statement-breakpoint
CREATE INDEX `backchannel_deliveries_created_idx` ON `backchannel_deliveries` (`created_at`);--> statement-breakpoint
CREATE INDEX `machine_access_tokens_expires_idx` ON `machine_access_tokens` (`expires_at`);--> statement-breakpoint
CREATE INDEX `access_tokens_expires_idx` ON `access_tokens` (`expires_at`);--> statement-breakpoint
CREATE INDEX `authorization_codes_expires_idx` ON `authorization_codes` (`expires_at`);--> statement-breakpoint
CREATE INDEX `oauth_grants_end_idx` ON `oauth_grants` (`refresh_expires_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `oauth_grants_revoked_idx` ON `oauth_grants` (`revoked_at`);--> statement-breakpoint
CREATE INDEX `refresh_tokens_expires_idx` ON `refresh_tokens` (`expires_at`);--> statement-breakpoint
CREATE INDEX `due_digests_sent_at_idx` ON `due_digests_sent` (`sent_at`);--> statement-breakpoint
CREATE INDEX `ws_sessions_expires_idx` ON `ws_sessions` (`expires_at`);