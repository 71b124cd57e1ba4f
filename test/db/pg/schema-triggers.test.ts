import type { Database } from "bun:sqlite";
import { beforeAll, describe, expect, it } from "bun:test";
import type { SQL } from "bun";
import type { MigratedSchema } from "../../../src/build/pg-schema/migrated.ts";
import type { Table } from "../../../src/build/pg-schema/model.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { usePgDatabases } from "./schema-database.ts";
import { insertSql, type Value } from "./schema-rows.ts";

/** What the triggers maintain, as a step leaves it: which versions moved (their values are each store's own), and each set's counts. */
type Derived = { versions: Record<string, string>; sets: Record<string, { version: string; topTotal: number; topCompleted: number }> };
type Seen = { moved: string[]; sets: Record<string, { moved: boolean; topTotal: number; topCompleted: number }> };

const VERSIONS = "SELECT name, CAST(version AS TEXT) AS version FROM cache_versions ORDER BY name";
const SETS = "SELECT id, CAST(list_version AS TEXT) AS version, top_total, top_completed FROM todo_sets ORDER BY id";

type Row = Record<string, unknown>;
function derivedOf(versions: Row[], sets: Row[]): Derived {
  return {
    versions: Object.fromEntries(versions.map((r) => [r.name, r.version])),
    sets: Object.fromEntries(sets.map((r) => [r.id, { version: r.version as string, topTotal: Number(r.top_total), topCompleted: Number(r.top_completed) }])),
  };
}

function seen(before: Derived, after: Derived): Seen {
  return {
    moved: Object.keys(after.versions).filter((name) => after.versions[name] !== before.versions[name]),
    sets: Object.fromEntries(
      Object.entries(after.sets).map(([id, s]) => [id, { moved: s.version !== before.sets[id]?.version, topTotal: s.topTotal, topCompleted: s.topCompleted }]),
    ),
  };
}

/** Each step is SQL both stores run as written; what it should move is checked on SQLite first (the reference). */
function steps(tables: Table[]): { what: string; sql: string }[] {
  const insert = (table: string, ...rows: Record<string, Value>[]) => insertSql(tables, table, rows);
  const todo = (id: string, set: string, parent: string | null, completed: number) => ({ id, set_id: set, team_id: "t1", parent_id: parent, completed });
  return [
    { what: "users are added", sql: insert("users", { id: "u1", username: "u1", email: "u1@x" }, { id: "u2", username: "u2", email: "u2@x" }) },
    { what: "a client is added", sql: insert("oauth_clients", { client_id: "c1", owner_user_id: null }) },
    { what: "a client is renamed", sql: `UPDATE "oauth_clients" SET "name" = 'n' WHERE "client_id" = 'c1'` },
    { what: "no client is updated", sql: `UPDATE "oauth_clients" SET "name" = 'n' WHERE "client_id" = 'none'` },
    { what: "no client is deleted", sql: `DELETE FROM "oauth_clients" WHERE "client_id" = 'none'` },
    { what: "a signing key is added", sql: insert("signing_keys", { kid: "k1" }) },
    { what: "a signing key is retired", sql: `UPDATE "signing_keys" SET "retired_at" = 1` },
    { what: "a signing key is deleted", sql: `DELETE FROM "signing_keys"` },
    { what: "a grant is made", sql: insert("oauth_grants", { id: "g1", client_id: "c1", user_id: "u1" }) },
    { what: "an access token is issued", sql: insert("access_tokens", { id: 1, token_hash: "h1", grant_id: "g1", client_id: "c1", user_id: "u1" }) },
    { what: "an access token is changed", sql: `UPDATE "access_tokens" SET "scopes" = '[]' WHERE "id" = 1` },
    { what: "a grant is revoked", sql: `UPDATE "oauth_grants" SET "revoked_at" = 1 WHERE "id" = 'g1'` },
    { what: "a user is renamed", sql: `UPDATE "users" SET "name" = 'Ada' WHERE "id" = 'u1'` },
    { what: "a session starts", sql: insert("sessions", { id: "s1", user_id: "u1", expires_at: 100, acr: "0" }) },
    { what: "a session is seen", sql: `UPDATE "sessions" SET "last_seen_at" = 5 WHERE "id" = 's1'` },
    { what: "a session is extended", sql: `UPDATE "sessions" SET "expires_at" = 200 WHERE "id" = 's1'` },
    { what: "a session is shortened", sql: `UPDATE "sessions" SET "expires_at" = 150 WHERE "id" = 's1'` },
    { what: "a session's acr changes", sql: `UPDATE "sessions" SET "acr" = '1' WHERE "id" = 's1'` },
    { what: "a session is revoked", sql: `UPDATE "sessions" SET "revoked_at" = 7 WHERE "id" = 's1'` },
    { what: "a forward auth session starts", sql: insert("forward_auth_sessions", { token_hash: "f1", session_id: "s1" }) },
    { what: "a forward auth session changes", sql: `UPDATE "forward_auth_sessions" SET "expires_at" = 9` },
    { what: "a forward auth session ends", sql: `DELETE FROM "forward_auth_sessions"` },
    { what: "teams are added", sql: insert("teams", { id: "t1", parent_id: null }, { id: "t2", parent_id: null }, { id: "t3", parent_id: "t1" }) },
    { what: "a member joins", sql: insert("team_members", { team_id: "t1", user_id: "u1" }) },
    { what: "a member's role changes", sql: `UPDATE "team_members" SET "role" = 'admin'` },
    { what: "a group is added", sql: insert("team_groups", { team_id: "t1", slug: "g" }) },
    { what: "a group is renamed", sql: `UPDATE "team_groups" SET "name" = 'G'` },
    { what: "a group gains a member", sql: insert("team_group_members", { team_id: "t1", slug: "g", user_id: "u1" }) },
    { what: "a group's member changes", sql: `UPDATE "team_group_members" SET "user_id" = 'u2'` },
    { what: "a group loses its member", sql: `DELETE FROM "team_group_members"` },
    { what: "a personal access token is made", sql: insert("personal_access_tokens", { id: "p1", user_id: "u1", token_hash: "ph", expires_at: null }) },
    { what: "a personal access token is used", sql: `UPDATE "personal_access_tokens" SET "last_used_at" = 3` },
    { what: "a personal access token gets an expiry", sql: `UPDATE "personal_access_tokens" SET "expires_at" = 10` },
    { what: "a personal access token is revoked", sql: `UPDATE "personal_access_tokens" SET "revoked_at" = 11` },
    { what: "a personal access token is deleted", sql: `DELETE FROM "personal_access_tokens"` },
    { what: "a forward auth rule is added", sql: insert("forward_auth_rules", { id: "r1" }) },
    { what: "a forward auth rule moves", sql: `UPDATE "forward_auth_rules" SET "position" = 2` },
    { what: "a forward auth rule is deleted", sql: `DELETE FROM "forward_auth_rules"` },
    {
      what: "sets are made",
      sql: insert("todo_sets", { id: "s1", team_id: "t1", name: "one" }, { id: "s2", team_id: "t1", name: "two" }, { id: "s3", team_id: "t2", name: "three" }),
    },
    { what: "a todo is added", sql: insert("todos", todo("a", "s1", null, 0)) },
    { what: "todos are added at once", sql: insert("todos", todo("b", "s1", null, 1), todo("c", "s1", "a", 1), todo("d", "s2", null, 0)) },
    { what: "a sub-todo is renamed", sql: `UPDATE "todos" SET "title" = 'x' WHERE "id" = 'c'` },
    { what: "a todo is completed", sql: `UPDATE "todos" SET "completed" = 1 WHERE "id" = 'a'` },
    { what: "a completed todo moves to another set", sql: `UPDATE "todos" SET "set_id" = 's2' WHERE "id" = 'b'` },
    { what: "no todo is updated", sql: `UPDATE "todos" SET "completed" = 1 WHERE "set_id" = 'none'` },
    { what: "two sets' todos are reopened at once", sql: `UPDATE "todos" SET "completed" = 0 WHERE "set_id" IN ('s1', 's2')` },
    { what: "a sub-todo becomes a top-level todo", sql: `UPDATE "todos" SET "parent_id" = NULL WHERE "id" = 'c'` },
    { what: "a todo is assigned", sql: insert("todo_assignees", { todo_id: "a", user_id: "u1" }) },
    { what: "a todo is unassigned", sql: `DELETE FROM "todo_assignees"` },
    { what: "a todo gets a comment", sql: insert("todo_comments", { id: "k1", todo_id: "d", team_id: "t1", user_id: "u1" }) },
    { what: "a comment is deleted", sql: `DELETE FROM "todo_comments"` },
    { what: "a member's name is cached", sql: insert("workspace_member_cache", { team_id: "t1", user_id: "u1", name: "A" }) },
    { what: "a cached member is refreshed unchanged", sql: `UPDATE "workspace_member_cache" SET "updated_at" = 9` },
    {
      what: "a cached member is upserted unchanged",
      sql: `${insertSql(tables, "workspace_member_cache", [{ team_id: "t1", user_id: "u1", name: "A", updated_at: 10 }])} ON CONFLICT ("team_id", "user_id") DO UPDATE SET "name" = excluded."name", "updated_at" = excluded."updated_at"`,
    },
    {
      what: "a cached member is upserted renamed",
      sql: `${insertSql(tables, "workspace_member_cache", [{ team_id: "t1", user_id: "u1", name: "B", updated_at: 11 }])} ON CONFLICT ("team_id", "user_id") DO UPDATE SET "name" = excluded."name", "updated_at" = excluded."updated_at"`,
    },
    { what: "a cached member moves team", sql: `UPDATE "workspace_member_cache" SET "team_id" = 't2'` },
    { what: "a cached member is dropped", sql: `DELETE FROM "workspace_member_cache"` },
    { what: "a todo with a sub-todo is deleted", sql: `UPDATE "todos" SET "parent_id" = 'a' WHERE "id" = 'c'; DELETE FROM "todos" WHERE "id" = 'a'` },
    { what: "a set is deleted with its todos", sql: `DELETE FROM "todo_sets" WHERE "id" = 's2'` },
    { what: "a user is deleted, with what hangs off them", sql: `DELETE FROM "users" WHERE "id" = 'u1'` },
    { what: "a client is deleted", sql: `DELETE FROM "oauth_clients" WHERE "client_id" = 'c1'` },
    { what: "a team is deleted, with its sub-team", sql: `DELETE FROM "teams" WHERE "id" = 't1'` },
  ];
}

/**
 * The triggers of the SQLite migrations (0015, 0023, 0024, 0037, 0038, 0039) against their
 * PostgreSQL port (migrations-pg/0001_triggers.sql): the same writes leave the same derived
 * values (a version moved or not; a set's counts).
 */
describe.skipIf(pgSkipReason !== null)("the triggers on PostgreSQL", () => {
  const pg = usePgDatabases();
  let sql: SQL;
  let sqlite: Database;
  let schema: MigratedSchema;
  beforeAll(async () => {
    ({ sql, sqlite, schema } = await pg.migratedPair());
  });

  const onSqlite = () => derivedOf(sqlite.query<Row, []>(VERSIONS).all(), sqlite.query<Row, []>(SETS).all());
  const onPg = async () => derivedOf(await sql.unsafe(VERSIONS), await sql.unsafe(SETS));

  it("ports every trigger the SQLite migrations leave, by name and table", async () => {
    // migrations-pg/0003 numbers a NULL integer key as SQLite's INTEGER PRIMARY KEY does by itself:
    // those triggers stand in for SQLite's own behaviour, not for a trigger of its migrations.
    const pgTriggers =
      await sql`SELECT t.tgname AS name, c.relname AS "table" FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal AND t.tgname NOT LIKE '%\_number\_key' ORDER BY 1`;
    expect([...pgTriggers].map((t) => ({ name: t.name, table: t.table }))).toEqual(schema.triggers.map(({ name, table }) => ({ name, table })));
  });

  it("moves the same versions and keeps the same counts as SQLite, step by step", async () => {
    let before = { sqlite: onSqlite(), pg: await onPg() };
    const trail: { what: string; sqlite: Seen; pg: Seen }[] = [];
    for (const step of steps(schema.tables)) {
      sqlite.run(step.sql);
      await sql.unsafe(step.sql);
      const after = { sqlite: onSqlite(), pg: await onPg() };
      trail.push({ what: step.what, sqlite: seen(before.sqlite, after.sqlite), pg: seen(before.pg, after.pg) });
      before = after;
    }
    for (const { what, sqlite: expected, pg: actual } of trail) expect(actual, what).toEqual(expected);
    // The steps are worth comparing: SQLite itself moved versions in some, none in others, and counted.
    const moved = (what: string) => trail.find((t) => t.what === what)?.sqlite.moved;
    expect(moved("no client is updated")).toEqual([]);
    expect(moved("a session is extended")).toEqual([]);
    expect(moved("a session is shortened")).toEqual(["forward_auth_sessions"]);
    expect(moved("a user is renamed")).toEqual(["access_tokens", "forward_auth_sessions"]);
    expect(trail.find((t) => t.what === "todos are added at once")?.sqlite.sets).toEqual({
      s1: { moved: true, topTotal: 2, topCompleted: 1 },
      s2: { moved: true, topTotal: 1, topCompleted: 0 },
      s3: { moved: false, topTotal: 0, topCompleted: 0 },
    });
  });
});
