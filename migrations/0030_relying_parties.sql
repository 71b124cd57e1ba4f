ALTER TABLE `oauth_clients` ADD `first_party` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `ws_sessions` ADD `idp_id_token_sealed` text;--> statement-breakpoint
-- The built-in workspace app is the only client the instance registers itself (no owner, no
-- registration token): first-party from now on, so its consent is implied (issue 42).
UPDATE `oauth_clients` SET `first_party` = 1 WHERE `owner_user_id` IS NULL AND `registration_token_hash` IS NULL;--> statement-breakpoint
-- Its signed-out home (the issuer's root, before /api/workspace/callback) becomes its registered
-- post_logout_redirect_uri, so the workspace's Sign out can end the IdP session and come home.
UPDATE `oauth_clients` SET `post_logout_redirect_uris` = json_array(substr(json_extract(`redirect_uris`, '$[0].uri'), 1, length(json_extract(`redirect_uris`, '$[0].uri')) - length('api/workspace/callback'))) WHERE `first_party` = 1 AND `post_logout_redirect_uris` = '[]' AND json_extract(`redirect_uris`, '$[0].uri') LIKE '%/api/workspace/callback';
