CREATE INDEX `device_authorizations_client_idx` ON `device_authorizations` (`client_id`,`expires_at`);--> statement-breakpoint
CREATE INDEX `device_authorizations_expires_idx` ON `device_authorizations` (`expires_at`);--> statement-breakpoint
CREATE INDEX `pushed_authorization_requests_client_idx` ON `pushed_authorization_requests` (`client_id`,`expires_at`);--> statement-breakpoint
CREATE INDEX `pushed_authorization_requests_expires_idx` ON `pushed_authorization_requests` (`expires_at`);