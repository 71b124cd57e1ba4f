import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { closeDatabase, openDatabase } from "../../src/db/client.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { readSetting, writeSetting } from "../../src/db/settings.repo.ts";
import { afterCommit, withTx } from "../../src/db/tx.ts";
import { systemClock } from "../../src/shared/clock.ts";
import { tempDir } from "../helpers/temp.ts";

const fresh = () => {
  const db = openDatabase(join(tempDir(), "gate.db"));
  applyMigrations(db.$client);
  return db;
};

/** Yields to other tasks between a transaction's statements, as a body awaiting several statements does. */
const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

describe("the transaction gate (issue 46: awaited statements on one SQLite connection)", () => {
  it("keeps another request's write out of an open transaction that then rolls back", async () => {
    const db = fresh();
    let outsideDone = false;
    const tx = withTx(db, async () => {
      await writeSetting(db, systemClock, "inside", 1);
      await ticks(20); // the outside write is issued meanwhile
      expect(outsideDone).toBe(false); // it waits for this transaction
      throw new Error("roll back");
    });
    const outside = (async () => {
      await Promise.resolve();
      await writeSetting(db, systemClock, "outside", 1);
      outsideDone = true;
    })();
    await expect(tx).rejects.toThrow("roll back");
    await outside;
    expect(await readSetting(db, "inside")).toBeUndefined();
    expect(await readSetting(db, "outside")).toBe(1);
    closeDatabase(db);
  });

  it("runs overlapping transactions one after another, each whole", async () => {
    const db = fresh();
    const order: string[] = [];
    const one = (name: string) =>
      withTx(db, async () => {
        order.push(`${name}:begin`);
        await writeSetting(db, systemClock, name, 1);
        await ticks(5);
        await writeSetting(db, systemClock, `${name}2`, 2);
        order.push(`${name}:end`);
      });
    await Promise.all([one("a"), one("b"), one("c")]);
    expect(order).toEqual(["a:begin", "a:end", "b:begin", "b:end", "c:begin", "c:end"]);
    for (const k of ["a", "b", "c"]) expect(await readSetting(db, `${k}2`)).toBe(2);
    closeDatabase(db);
  });

  it("a statement from inside the body runs at once, also through a helper that does not know of the transaction", async () => {
    const db = fresh();
    const value = await withTx(db, async () => {
      await writeSetting(db, systemClock, "x", 7);
      return withTx(db, async () => readSetting<number>(db, "x")); // nested: a savepoint, not a deadlock
    });
    expect(value).toBe(7);
    closeDatabase(db);
  });

  it("a nested transaction that fails rolls back only itself and drops only its after-commit work", async () => {
    const db = fresh();
    const ran: string[] = [];
    await withTx(db, async () => {
      await writeSetting(db, systemClock, "kept", 1);
      afterCommit(db, () => ran.push("outer"));
      await withTx(db, async () => {
        await writeSetting(db, systemClock, "dropped", 1);
        afterCommit(db, () => ran.push("inner"));
        throw new Error("inner fails");
      }).catch(() => {});
    });
    expect(await readSetting(db, "kept")).toBe(1);
    expect(await readSetting(db, "dropped")).toBeUndefined();
    expect(ran).toEqual(["outer"]);
    closeDatabase(db);
  });

  it("the group commit's batch commits only once a transaction open in it has ended", async () => {
    const db = fresh();
    db.$group.join();
    const tx = withTx(db, async () => {
      await writeSetting(db, systemClock, "in-batch", 1);
      // Several turns of the event loop: the batch's setImmediate commit comes and must wait.
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      expect(db.$client.inTransaction).toBe(true);
      await writeSetting(db, systemClock, "in-batch-2", 1);
    });
    await tx;
    await db.$group.settled();
    expect(db.$client.inTransaction).toBe(false);
    expect(await readSetting(db, "in-batch-2")).toBe(1);
    closeDatabase(db);
  });

  it("50 concurrent transactions that each read then write a counter lose no update", async () => {
    const db = fresh();
    await writeSetting(db, systemClock, "n", 0);
    await Promise.all(
      Array.from({ length: 50 }, () =>
        withTx(db, async () => {
          const n = (await readSetting<number>(db, "n")) ?? 0;
          await ticks(2);
          await writeSetting(db, systemClock, "n", n + 1);
        }),
      ),
    );
    expect(await readSetting(db, "n")).toBe(50);
    closeDatabase(db);
  });
});
