import { beforeAll, describe, expect, it } from "bun:test";
import type { PgClient, PgTx } from "../../../src/db/pg/client.ts";
import { sqlState } from "../../../src/db/pg/client.ts";
import { DatabaseUnavailableError } from "../../../src/db/pg/errors.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { failure, usePostgres } from "./fixture.ts";

const counterValue = async (tx: PgClient | PgTx, id: number) => (await tx.query<{ v: number }>('select "v" from "counters" where "id" = ?', [id])).rows[0]!.v;

/** Two transactions that read the same row, then both write it: the second to write must fail with 40001, then run again. */
async function collide(client: PgClient, id: number, maxTries?: number) {
  await client.query('insert into "counters" ("id", "v") values (?, 0)', [id]);
  let runs = 0;
  const { promise: read, resolve: hasRead } = Promise.withResolvers<void>();
  const { promise: otherCommitted, resolve: commitOther } = Promise.withResolvers<void>();
  const late = client.transaction(
    async (tx) => {
      runs++;
      const seen = await counterValue(tx, id); // its snapshot starts here
      if (runs === 1) {
        hasRead();
        await otherCommitted;
      }
      await tx.query('update "counters" set "v" = ? where "id" = ?', [seen + 1, id]);
    },
    { maxTries },
  );
  await read;
  await client.transaction((tx) => tx.query('update "counters" set "v" = "v" + 10 where "id" = ?', [id]));
  commitOther();
  return { late, runs: () => runs };
}

describe.skipIf(pgSkipReason !== null)("transactions on PostgreSQL", () => {
  const pg = usePostgres();
  let client: PgClient;
  beforeAll(async () => {
    client = pg.open();
    await client.query('create table "codes" ("id" text primary key, "used_at" bigint)');
    await client.query('create table "counters" ("id" bigint primary key, "v" bigint not null)');
  });

  it("lets exactly one of 50 concurrent transactions consume a one-use row, and none fails", async () => {
    await client.query('insert into "codes" ("id", "used_at") values (?, null)', ["once"]);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        client.transaction(async (tx) => (await tx.query('update "codes" set "used_at" = ? where "id" = ? and "used_at" is null', [1000 + i, "once"])).changes),
      ),
    );
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    const changes = results.map((r) => (r as PromiseFulfilledResult<number>).value);
    expect(changes.filter((n) => n === 1)).toHaveLength(1);
    expect(changes.filter((n) => n === 0)).toHaveLength(49);
    const winner = changes.indexOf(1);
    expect((await client.query('select "used_at" from "codes" where "id" = ?', ["once"])).rows).toEqual([{ used_at: 1000 + winner }]);
  });

  it("runs a transaction that lost a serialization conflict (40001) again, on a fresh snapshot", async () => {
    const { late, runs } = await collide(client, 1);
    await late;
    expect(runs()).toBe(2);
    expect(await counterValue(client, 1)).toBe(11); // read 10 on its second run, not 0
  });

  it("answers a conflict that outlasts its tries as the database being unavailable for now, the serialization failure its cause", async () => {
    const { late, runs } = await collide(client, 2, 1);
    const error = await failure(late);
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect(sqlState((error as Error).cause)).toBe("40001");
    expect(runs()).toBe(1);
    expect(await counterValue(client, 2)).toBe(10);
  });

  it("commits every one of 25 transactions that all read, then write, the same row at once: their runs again take turns", async () => {
    await client.query('insert into "counters" ("id", "v") values (?, 0)', [8]);
    // A connection for each: all 25 are open at once.
    const roomy = pg.open({ max: 25 });
    let runs = 0;
    const { promise: allRead, resolve } = Promise.withResolvers<void>();
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, () =>
        roomy.transaction(async (tx) => {
          const seen = await counterValue(tx, 8);
          // The first runs all read before any writes: every one of them but the first to commit conflicts.
          if (++runs === 25) resolve();
          await allRead;
          await tx.query('update "counters" set "v" = ? where "id" = ?', [seen + 1, 8]);
        }),
      ),
    );
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(await counterValue(client, 8)).toBe(25);
    // 25 first runs and one run again for each of the 24 that lost: no run again met another.
    expect(runs).toBe(49);
  });

  it("lets transactions of one turn, on two instances, follow each other: 2 × 20 read-then-write the same row, none conflicts, none runs again", async () => {
    await client.query('insert into "counters" ("id", "v") values (?, 0)', [9]);
    const [a, b] = [pg.open({ max: 20 }), pg.open({ max: 20 })];
    let runs = 0;
    const bump = (instance: PgClient) =>
      instance.transaction(
        async (tx) => {
          runs++;
          const seen = await counterValue(tx, 9);
          await Bun.sleep(1); // others queue meanwhile: without the turn they read the same value and conflict
          await tx.query('update "counters" set "v" = ? where "id" = ?', [seen + 1, 9]);
        },
        { turn: "counter 9", maxTries: 1 },
      );
    const results = await Promise.allSettled([...Array.from({ length: 20 }, () => bump(a)), ...Array.from({ length: 20 }, () => bump(b))]);
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(runs).toBe(40);
    expect(await counterValue(client, 9)).toBe(40);
    // Every turn was left: the lock is free on a third connection.
    const free = await client.transaction(
      async (tx) => (await tx.query<{ free: number }>("select pg_try_advisory_xact_lock(hashtextextended('counter 9', 0))::int as free")).rows[0]!.free,
    );
    expect(free).toBe(1);
    await Promise.all([a.close(), b.close()]);
  });

  it("runs again the transaction the server picked as a deadlock's victim (40P01)", async () => {
    await client.query('insert into "counters" ("id", "v") values (?, 0), (?, 0)', [3, 4]);
    let runs = 0;
    const { promise: bothLocked, resolve } = Promise.withResolvers<void>();
    let locked = 0;
    // Each locks one row, waits until the other has locked its own, then wants the other's.
    const crossing = (first: number, second: number) =>
      client.transaction(
        async (tx) => {
          runs++;
          await tx.query("set local deadlock_timeout = '10ms'");
          await tx.query('update "counters" set "v" = "v" + 1 where "id" = ?', [first]);
          if (++locked === 2) resolve();
          await bothLocked;
          await tx.query('update "counters" set "v" = "v" + 1 where "id" = ?', [second]);
        },
        { isolation: "read committed" },
      );
    await Promise.all([crossing(3, 4), crossing(4, 3)]);
    expect(runs).toBe(3);
    expect([await counterValue(client, 3), await counterValue(client, 4)]).toEqual([2, 2]);
  });

  it("rolls back and rethrows a body's own error without running it again", async () => {
    let runs = 0;
    const attempt = client.transaction(async (tx) => {
      runs++;
      await tx.query('insert into "counters" ("id", "v") values (?, ?)', [5, 1]);
      throw new Error("changed my mind");
    });
    await expect(attempt).rejects.toThrow("changed my mind");
    expect(runs).toBe(1);
    expect((await client.query('select 1 from "counters" where "id" = ?', [5])).rows).toEqual([]);
  });

  it("rolls back a failed savepoint alone, nested ones included, and commits the rest", async () => {
    const isolation = await client.transaction(async (tx) => {
      await tx.query('insert into "counters" ("id", "v") values (?, ?)', [6, 1]);
      await tx.savepoint(async (outer) => {
        await outer.query('update "counters" set "v" = 2 where "id" = ?', [6]);
        await expect(
          outer.savepoint(async (inner) => {
            await inner.query('update "counters" set "v" = 3 where "id" = ?', [6]);
            throw new Error("inner fails");
          }),
        ).rejects.toThrow("inner fails");
        expect(await counterValue(outer, 6)).toBe(2);
      });
      await expect(
        tx.savepoint(async (other) => {
          await other.query('insert into "counters" ("id", "v") values (?, ?)', [6, 99]); // a unique violation
        }),
      ).rejects.toMatchObject({ errno: "23505" });
      return (await tx.query<{ transaction_isolation: string }>("show transaction_isolation")).rows[0]!.transaction_isolation;
    });
    expect(isolation).toBe("serializable");
    expect(await counterValue(client, 6)).toBe(2);
  });

  it("opens a read-only transaction when asked", async () => {
    const attempt = client.transaction((tx) => tx.query('insert into "counters" ("id", "v") values (?, ?)', [7, 1]), { readOnly: true });
    await expect(attempt).rejects.toMatchObject({ errno: "25006" }); // read_only_sql_transaction
  });
});
