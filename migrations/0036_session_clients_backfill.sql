-- Back-channel logout reads who signed in per session from session_clients now, not from grants,
-- which the purge deletes once their tokens end: every session's clients so far, once.
INSERT OR IGNORE INTO `session_clients` (`sid`, `client_id`)
SELECT DISTINCT `g`.`sid`, `g`.`client_id` FROM `oauth_grants` `g` JOIN `sessions` `s` ON `s`.`id` = `g`.`sid`;
