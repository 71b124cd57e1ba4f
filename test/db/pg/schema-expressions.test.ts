import type { Database } from "bun:sqlite";
import { beforeAll, describe, expect, it } from "bun:test";
import type { SQL } from "bun";
import type { MigratedSchema } from "../../../src/build/pg-schema/migrated.ts";
import type { Index } from "../../../src/build/pg-schema/model.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { readIndexes } from "./schema-catalog.ts";
import { usePgDatabases } from "./schema-database.ts";
import { insertSql } from "./schema-rows.ts";

// Upper and lower case in and out of ASCII, spaces around and inside, no "@", several.
const PEOPLE = [
  ["Ada Lovelace", "ada@example.org"],
  ["ÉLODIE Dupont", "elodie@Exemple.FR"],
  ["zoë ÅNGSTRÖM", "zoe@x.se"],
  ["  Padded  Name  ", "padded@b@c"],
  ["Single", "no-at-sign"],
  ["", "@"],
  ["Mary Ann SMITH", "MARY@EXAMPLE.ORG"],
  ["ß Straße", "sz@de"],
  ["ǅemal ǈ", "dz@hr"],
];

/**
 * The expressions SQLite's migrations index (migration 0037) and PostgreSQL's translation of them
 * compute the same keys, and text orders and compares the same: the admin's user search reads
 * ranges of these keys (identity/users/users-search.repo.ts).
 */
describe.skipIf(pgSkipReason !== null)("the users' search keys on PostgreSQL", () => {
  const pg = usePgDatabases();
  let sql: SQL;
  let sqlite: Database;
  let expressionIndexes: Index[];
  beforeAll(async () => {
    let schema: MigratedSchema;
    ({ sql, sqlite, schema } = await pg.migratedPair());
    expressionIndexes = (schema.tables.find((t) => t.name === "users")?.indexes ?? []).filter((i) => i.keys.some((k) => "expression" in k));
    const insert = insertSql(
      schema.tables,
      "users",
      PEOPLE.map(([name, email], i) => ({ id: `u${i}`, username: `user${i}`, name: name as string, email: email as string })),
    );
    sqlite.run(insert);
    await sql.unsafe(insert);
  });

  const pgKeyOf = async (index: string) => ((await readIndexes(sql)).find((i) => i.name === index)?.keys[0] ?? "") as string;

  it("computes every expression index's key as SQLite does", async () => {
    expect(expressionIndexes.map((i) => i.name).sort()).toEqual(["users_email_domain_idx", "users_last_word_prefix_idx", "users_name_prefix_idx"]);
    for (const index of expressionIndexes) {
      const key = index.keys[0] as { expression: string };
      const onSqlite = sqlite.query<{ id: string; v: string }, []>(`SELECT id, ${key.expression} AS v FROM users ORDER BY id`).all();
      const onPg = await sql.unsafe(`SELECT id, ${await pgKeyOf(index.name)} AS v FROM users ORDER BY id`);
      expect(
        [...onPg].map((r) => ({ id: r.id, v: r.v })),
        index.name,
      ).toEqual(onSqlite);
    }
  });

  it("orders text and compares prefix ranges as SQLite does", async () => {
    const top = "\u{10FFFF}";
    const order = "SELECT id FROM users ORDER BY name, lower(name), email";
    expect((await sql.unsafe(order)).map((r: { id: string }) => r.id)).toEqual(
      sqlite
        .query<{ id: string }, []>(order)
        .all()
        .map((r) => r.id),
    );
    for (const prefix of ["a", "m", "é", "É", " ", "ǅ", "ß"]) {
      const range = "SELECT id FROM users WHERE lower(name) >= $1 AND lower(name) < $2 ORDER BY id";
      const onPg = (await sql.unsafe(range, [prefix, prefix + top])).map((r: { id: string }) => r.id);
      expect(onPg, prefix).toEqual(
        sqlite
          .query<{ id: string }, [string, string]>(range.replace("$1", "?1").replace("$2", "?2"))
          .all(prefix, prefix + top)
          .map((r) => r.id),
      );
    }
  });

  it("finds a prefix range through each expression index, written as the index is", async () => {
    const reserved = await sql.reserve();
    try {
      await reserved.unsafe("BEGIN");
      // A nine-row table is read whole otherwise; the question is whether the index can serve the range.
      await reserved.unsafe("SET LOCAL enable_seqscan = off");
      for (const index of expressionIndexes) {
        const key = await pgKeyOf(index.name);
        const plan = await reserved.unsafe(`EXPLAIN SELECT id FROM users WHERE ${key} >= $1 AND ${key} < $2`, ["a", "b"]);
        expect(plan.map((r: { "QUERY PLAN": string }) => r["QUERY PLAN"]).join("\n"), index.name).toContain(index.name);
      }
      await reserved.unsafe("ROLLBACK");
    } finally {
      reserved.release();
    }
  });
});
