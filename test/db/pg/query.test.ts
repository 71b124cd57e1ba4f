import { beforeAll, describe, expect, it } from "bun:test";
import { DatabaseUnavailableError, type PgClient, sqlState, UNIQUE_VIOLATION } from "../../../src/db/pg/client.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { failure, usePostgres } from "./fixture.ts";

// The column types issue 46 maps SQLite's to: integer -> bigint, real -> double precision, blob -> bytea.
const TABLE = `create table "items" (
  "id" text primary key,
  "n" bigint,
  "d" double precision,
  "b" bytea,
  "t" text
)`;

describe.skipIf(pgSkipReason !== null)("queries on PostgreSQL read back what bun:sqlite would", () => {
  const pg = usePostgres();
  let client: PgClient;
  beforeAll(async () => {
    client = pg.open();
    await client.query(TABLE);
  });

  it("round-trips text, bigint, double precision, bytea and null, as objects and as arrays", async () => {
    const rows = [
      ["max", Number.MAX_SAFE_INTEGER, 0.1, new Uint8Array([0, 1, 255]), "snow ☃ and 🐈"],
      ["min", -Number.MAX_SAFE_INTEGER, -1e300, Buffer.from("xy"), ""],
      ["zero", 0, 0, new Uint8Array(), "it's ? and $1"],
      ["nulls", null, null, null, null],
    ] as const;
    for (const row of rows) await client.query('insert into "items" ("id", "n", "d", "b", "t") values (?, ?, ?, ?, ?)', [...row]);

    const objects = await client.query('select "id", "n", "d", "b", "t" from "items" where "id" = ?', ["max"]);
    expect(objects.rows).toEqual([{ id: "max", n: Number.MAX_SAFE_INTEGER, d: 0.1, b: Buffer.from([0, 1, 255]), t: "snow ☃ and 🐈" }]);
    expect(objects.rows[0]!.b).toBeInstanceOf(Uint8Array);

    const arrays = await client.query('select "id", "n", "d", "b", "t" from "items" order by "id"', [], "arrays");
    const byId = Object.fromEntries(arrays.rows.map((row) => [row[0], row]));
    expect(byId.min).toEqual(["min", -Number.MAX_SAFE_INTEGER, -1e300, Buffer.from("xy"), ""]);
    expect(byId.zero).toEqual(["zero", 0, 0, Buffer.from([]), "it's ? and $1"]);
    expect(byId.nulls).toEqual(["nulls", null, null, null, null]);
  });

  it("answers count(*), sum() and a comparison as numbers, as SQLite does", async () => {
    const { rows } = await client.query('select count(*) as "count", sum("n") as "sum", exists (select 1 from "items") as "any", 2 > 1 as "more" from "items"');
    expect(rows).toEqual([{ count: 4, sum: 0, any: 1, more: 1 }]);
    const counted = await client.query('select count(*) from "items" where "n" > ?', [0], "arrays");
    expect(counted.rows).toEqual([[1]]);
  });

  it("binds a boolean as 1 or 0, as bun:sqlite does", async () => {
    const { rows } = await client.query('select count(*) as "c" from "items" where "n" = ? or "n" = ?', [false, true]);
    expect(rows).toEqual([{ c: 1 }]);
  });

  it("reports the rows a write changed, with and without RETURNING", async () => {
    await client.query('create table "counters" ("id" bigint primary key, "v" bigint not null)');
    expect((await client.query('insert into "counters" ("id", "v") values (?, ?), (?, ?), (?, ?)', [1, 0, 2, 0, 3, 5])).changes).toBe(3);
    expect((await client.query('update "counters" set "v" = "v" + 1 where "v" = ?', [0])).changes).toBe(2);
    expect((await client.query('update "counters" set "v" = 9 where "id" = ?', [404])).changes).toBe(0);
    const returned = await client.query('delete from "counters" where "v" = ? returning "id"', [1]);
    expect(returned.changes).toBe(2);
    expect(returned.rows.map((row) => row.id).sort()).toEqual([1, 2]);
    expect((await client.query('select "v" from "counters"')).changes).toBe(0);
  });

  it("takes a statement already in $n form as written", async () => {
    const { rows } = await client.query("select $1::bigint + 1 as next", [41]);
    expect(rows).toEqual([{ next: 42 }]);
  });

  it("refuses a statement whose placeholders and parameters do not match", async () => {
    await expect(client.query('select ? as "a", ? as "b"', [1])).rejects.toThrow("the statement has 2 placeholders and 1 parameters");
  });

  it("orders text by code point, as SQLite does (the database's collation is C)", async () => {
    const { rows } = await client.query("select v from (values ('a'), ('B'), ('é'), ('Z'), ('ab')) as t(v) order by v", [], "arrays");
    expect(rows.flat()).toEqual(["B", "Z", "a", "ab", "é"]);
    expect((await client.query("show fsync")).rows).toEqual([{ fsync: "on" }]);
  });

  it("rethrows a unique violation with its SQLSTATE and constraint, not as unavailability", async () => {
    const error = await failure(client.query('insert into "items" ("id") values (?)', ["max"]));
    expect(error).not.toBeInstanceOf(DatabaseUnavailableError);
    expect(sqlState(error)).toBe(UNIQUE_VIOLATION);
    expect((error as { constraint?: string }).constraint).toBe("items_pkey");
  });
});
