-- The triggers of the SQLite migrations (0015, 0023, 0024, 0037, 0038, 0039), ported to
-- PostgreSQL by hand (issue 46): the same names on the same tables, the same values left behind.
--
-- SQLite has row triggers only. Where a SQLite trigger fires for every row and bumps a version, the
-- port is a statement trigger that reads the statement's changed rows (a transition table): the
-- version moves exactly when SQLite's would (at least one row changed), but once per statement, not
-- once per row: on PostgreSQL each update of a row writes a new version of it, so a purge of a
-- thousand rows would otherwise write a thousand. A trigger with a WHEN condition on the old and
-- new row stays a row trigger with that condition: it is exact, and those updates touch few rows.

-- SQLite's random() gave each bump a value never seen before, so a rolled-back change followed by
-- another cannot land on a value a cache saw. A sequence does the same: nextval is never undone.
CREATE SEQUENCE "cairn_versions" AS bigint;

-- The next version after `previous`: never equal to it, even for a value copied from SQLite
-- (random, so possibly inside the sequence's range).
CREATE FUNCTION cairn_next_version(previous bigint) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  version bigint;
BEGIN
  LOOP
    version := nextval('cairn_versions');
    EXIT WHEN version IS DISTINCT FROM previous;
  END LOOP;
  RETURN version;
END $$;

-- cache_versions (see src/db/cache-versions.table.ts): TG_ARGV[0] names the row to bump. A
-- statement trigger may have changed no row; a row trigger fires for a row its WHEN chose.
CREATE FUNCTION cairn_bump_cache_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    IF NOT EXISTS (SELECT FROM changed_rows) THEN
      RETURN NULL;
    END IF;
  END IF;
  UPDATE cache_versions SET version = cairn_next_version(version) WHERE name = TG_ARGV[0];
  RETURN NULL;
END $$;

-- 0015: OAuth clients and signing keys, kept in memory by every process.
CREATE TRIGGER "oauth_clients_version_insert" AFTER INSERT ON "oauth_clients" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('oauth_clients');
CREATE TRIGGER "oauth_clients_version_update" AFTER UPDATE ON "oauth_clients" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('oauth_clients');
CREATE TRIGGER "oauth_clients_version_delete" AFTER DELETE ON "oauth_clients" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('oauth_clients');
CREATE TRIGGER "signing_keys_version_insert" AFTER INSERT ON "signing_keys" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('signing_keys');
CREATE TRIGGER "signing_keys_version_update" AFTER UPDATE ON "signing_keys" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('signing_keys');
CREATE TRIGGER "signing_keys_version_delete" AFTER DELETE ON "signing_keys" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('signing_keys');

-- 0023 and 0024: what an access token resolves to (its row, its grant, its user); new rows need no move.
CREATE TRIGGER "access_tokens_version_update" AFTER UPDATE ON "access_tokens" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('access_tokens');
CREATE TRIGGER "access_tokens_version_delete" AFTER DELETE ON "access_tokens" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('access_tokens');
CREATE TRIGGER "oauth_grants_version_update" AFTER UPDATE ON "oauth_grants" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('access_tokens');
CREATE TRIGGER "oauth_grants_version_delete" AFTER DELETE ON "oauth_grants" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('access_tokens');
CREATE TRIGGER "users_version_update" AFTER UPDATE ON "users" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('access_tokens');
CREATE TRIGGER "users_version_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('access_tokens');

-- 0038: forward auth's rules, compiled in memory by every process.
CREATE TRIGGER "forward_auth_rules_version_insert" AFTER INSERT ON "forward_auth_rules" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_rules');
CREATE TRIGGER "forward_auth_rules_version_update" AFTER UPDATE ON "forward_auth_rules" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_rules');
CREATE TRIGGER "forward_auth_rules_version_delete" AFTER DELETE ON "forward_auth_rules" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_rules');

-- 0039: forward auth's answers from memory (who a cookie or token names, their teams, groups and role).
CREATE TRIGGER "forward_auth_sessions_version_update" AFTER UPDATE ON "forward_auth_sessions" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "forward_auth_sessions_version_delete" AFTER DELETE ON "forward_auth_sessions" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "sessions_fa_version_update" AFTER UPDATE ON "sessions" FOR EACH ROW
  WHEN (NEW."revoked_at" IS DISTINCT FROM OLD."revoked_at" OR NEW."expires_at" < OLD."expires_at" OR NEW."user_id" IS DISTINCT FROM OLD."user_id" OR NEW."acr" IS DISTINCT FROM OLD."acr")
  EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "sessions_fa_version_delete" AFTER DELETE ON "sessions" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "users_fa_version_update" AFTER UPDATE ON "users" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "users_fa_version_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "teams_fa_version_insert" AFTER INSERT ON "teams" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "teams_fa_version_update" AFTER UPDATE ON "teams" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "teams_fa_version_delete" AFTER DELETE ON "teams" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "team_members_fa_version_insert" AFTER INSERT ON "team_members" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "team_members_fa_version_update" AFTER UPDATE ON "team_members" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "team_members_fa_version_delete" AFTER DELETE ON "team_members" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "team_group_members_fa_version_insert" AFTER INSERT ON "team_group_members" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "team_group_members_fa_version_update" AFTER UPDATE ON "team_group_members" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "team_group_members_fa_version_delete" AFTER DELETE ON "team_group_members" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "team_groups_fa_version_update" AFTER UPDATE ON "team_groups" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "team_groups_fa_version_delete" AFTER DELETE ON "team_groups" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "personal_access_tokens_fa_version_update" AFTER UPDATE ON "personal_access_tokens" FOR EACH ROW
  WHEN (NEW."revoked_at" IS DISTINCT FROM OLD."revoked_at" OR NEW."expires_at" IS DISTINCT FROM OLD."expires_at" OR NEW."user_id" IS DISTINCT FROM OLD."user_id" OR NEW."token_hash" IS DISTINCT FROM OLD."token_hash")
  EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');
CREATE TRIGGER "personal_access_tokens_fa_version_delete" AFTER DELETE ON "personal_access_tokens" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_bump_cache_version('forward_auth_sessions');

-- 0037: each set's list version and top-level counts (todo_sets.list_version, top_total,
-- top_completed; see src/workspace/storage/sets.table.ts). A set a statement's todos were in before
-- or are in after gets a new version; its counts gain the top-level todos that came in and lose
-- those that went out (SQLite: an update subtracts the old row from its set, adds the new to its).
CREATE FUNCTION cairn_todos_list() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE todo_sets s SET list_version = cairn_next_version(s.list_version), top_total = s.top_total + d.top, top_completed = s.top_completed + d.done
    FROM (
      SELECT set_id, count(*) FILTER (WHERE parent_id IS NULL) AS top, count(*) FILTER (WHERE parent_id IS NULL AND completed = 1) AS done
      FROM new_todos GROUP BY set_id
    ) d
    WHERE s.id = d.set_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE todo_sets s SET list_version = cairn_next_version(s.list_version), top_total = s.top_total - d.top, top_completed = s.top_completed - d.done
    FROM (
      SELECT set_id, count(*) FILTER (WHERE parent_id IS NULL) AS top, count(*) FILTER (WHERE parent_id IS NULL AND completed = 1) AS done
      FROM old_todos GROUP BY set_id
    ) d
    WHERE s.id = d.set_id;
  ELSE
    UPDATE todo_sets s SET list_version = cairn_next_version(s.list_version), top_total = s.top_total + d.top, top_completed = s.top_completed + d.done
    FROM (
      SELECT set_id, sum(top) AS top, sum(done) AS done FROM (
        SELECT set_id, (parent_id IS NULL)::int AS top, (parent_id IS NULL AND completed = 1)::int AS done FROM new_todos
        UNION ALL
        SELECT set_id, -(parent_id IS NULL)::int, -(parent_id IS NULL AND completed = 1)::int FROM old_todos
      ) moves GROUP BY set_id
    ) d
    WHERE s.id = d.set_id;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "todos_list_insert" AFTER INSERT ON "todos" REFERENCING NEW TABLE AS new_todos FOR EACH STATEMENT EXECUTE FUNCTION cairn_todos_list();
CREATE TRIGGER "todos_list_delete" AFTER DELETE ON "todos" REFERENCING OLD TABLE AS old_todos FOR EACH STATEMENT EXECUTE FUNCTION cairn_todos_list();
CREATE TRIGGER "todos_list_update" AFTER UPDATE ON "todos" REFERENCING OLD TABLE AS old_todos NEW TABLE AS new_todos FOR EACH STATEMENT EXECUTE FUNCTION cairn_todos_list();

-- What a set's list shows of its todos' assignees and comments: the sets of the todos they hang on.
CREATE FUNCTION cairn_todo_detail_list() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE todo_sets SET list_version = cairn_next_version(list_version)
  WHERE id IN (SELECT t.set_id FROM todos t WHERE t.id IN (SELECT todo_id FROM changed_rows));
  RETURN NULL;
END $$;

CREATE TRIGGER "todo_assignees_list_insert" AFTER INSERT ON "todo_assignees" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_todo_detail_list();
CREATE TRIGGER "todo_assignees_list_delete" AFTER DELETE ON "todo_assignees" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_todo_detail_list();
CREATE TRIGGER "todo_comments_list_insert" AFTER INSERT ON "todo_comments" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_todo_detail_list();
CREATE TRIGGER "todo_comments_list_delete" AFTER DELETE ON "todo_comments" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_todo_detail_list();

-- Member names the lists show: every set of the member's team (both teams when a row moves).
CREATE FUNCTION cairn_member_cache_list() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    UPDATE todo_sets SET list_version = cairn_next_version(list_version) WHERE team_id IN (OLD.team_id, NEW.team_id);
  ELSE
    UPDATE todo_sets SET list_version = cairn_next_version(list_version) WHERE team_id IN (SELECT team_id FROM changed_rows);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "member_cache_list_insert" AFTER INSERT ON "workspace_member_cache" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_member_cache_list();
CREATE TRIGGER "member_cache_list_update" AFTER UPDATE ON "workspace_member_cache" FOR EACH ROW
  WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."username" IS DISTINCT FROM NEW."username" OR OLD."avatar_url" IS DISTINCT FROM NEW."avatar_url" OR OLD."team_id" IS DISTINCT FROM NEW."team_id")
  EXECUTE FUNCTION cairn_member_cache_list();
CREATE TRIGGER "member_cache_list_delete" AFTER DELETE ON "workspace_member_cache" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_member_cache_list();
