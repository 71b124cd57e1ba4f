import { describe, expect, it } from "bun:test";
import { and, eq } from "drizzle-orm";
import { changedRows } from "../../../src/db/changes.ts";
import { migratePostgres } from "../../../src/db/pg/migrate.ts";
import { postgresDatabase } from "../../../src/db/pg/database.ts";
import { readSetting, writeSetting, insertSettingOnce } from "../../../src/db/settings.repo.ts";
import { settings } from "../../../src/db/settings.table.ts";
import { afterCommit, withTx } from "../../../src/db/tx.ts";
import { systemClock } from "../../../src/shared/clock.ts";
import { pgSkipReason } from "../../helpers/postgres.ts";
import { usePostgres } from "./fixture.ts";

describe.skipIf(pgSkipReason !== null)("the application's queries on PostgreSQL (db/pg/database.ts)", () => {
  const pg = usePostgres();
  const open = async () => {
    const migrator = new Bun.SQL(pg.url);
    await migratePostgres(migrator);
    await migrator.close();
    return postgresDatabase(pg.open());
  };

  it("runs drizzle's SQLite-built queries: insert, upsert, select, one-use insert", async () => {
    const db = await open();
    await writeSetting(db, systemClock, "site", { name: "Cairn" });
    expect(await readSetting(db, "site")).toEqual({ name: "Cairn" });
    await writeSetting(db, systemClock, "site", { name: "Other" });
    expect(await readSetting(db, "site")).toEqual({ name: "Other" });
    expect(await insertSettingOnce(db, systemClock, "once", 1)).toBe(true);
    expect(await insertSettingOnce(db, systemClock, "once", 2)).toBe(false);
    const row = await db.select().from(settings).where(eq(settings.key, "once")).get();
    expect(row?.value).toBe(1);
    expect(typeof row?.updatedAt).toBe("number");
  });

  it("withTx: a rolled-back transaction leaves nothing and runs no after-commit work; a nested failure undoes only itself", async () => {
    const db = await open();
    const ran: string[] = [];
    await expect(
      withTx(db, async () => {
        await writeSetting(db, systemClock, "gone", 1);
        afterCommit(db, () => ran.push("gone"));
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect(await readSetting(db, "gone")).toBeUndefined();
    await withTx(db, async () => {
      await writeSetting(db, systemClock, "kept", 1);
      afterCommit(db, () => ran.push("kept"));
      await withTx(db, async () => {
        await writeSetting(db, systemClock, "inner", 1);
        afterCommit(db, () => ran.push("inner"));
        throw new Error("inner");
      }).catch(() => {});
    });
    expect(await readSetting(db, "kept")).toBe(1);
    expect(await readSetting(db, "inner")).toBeUndefined();
    expect(ran).toEqual(["kept"]);
  });

  it("50 concurrent one-use claims in transactions: exactly one wins", async () => {
    const db = await open();
    await writeSetting(db, systemClock, "claim", "free");
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        withTx(db, async () => {
          const r = await db
            .update(settings)
            .set({ value: `taken by ${i}` })
            .where(and(eq(settings.key, "claim"), eq(settings.value, "free")))
            .run();
          return changedRows(r);
        }),
      ),
    );
    expect(results.filter((n) => n === 1).length).toBe(1);
    expect(results.filter((n) => n === 0).length).toBe(49);
  });
});
