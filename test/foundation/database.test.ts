import { describe, expect, it } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { bootContext, databaseFile } from "../../src/boot.ts";
import { loadConfig } from "../../src/config/config.ts";
import { closeDatabase, openDatabase } from "../../src/db/client.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { bundledMigrations } from "../../src/db/migrations.ts";
import { afterCommit, withTx } from "../../src/db/tx.ts";
import { createEventBus } from "../../src/context/event-bus.ts";
import { singleProcess } from "../../src/context/cluster.ts";
import { readSetting, writeSetting } from "../../src/db/settings.repo.ts";
import { systemClock } from "../../src/shared/clock.ts";
import { createSecretBox } from "../../src/shared/crypto.ts";
import { createLogger } from "../../src/shared/log.ts";
import { tempDir } from "../helpers/temp.ts";

const mode = (path: string) => statSync(path).mode & 0o777;

describe("database (ARCHITECTURE section 1)", () => {
  it("opens with WAL, synchronous FULL, foreign keys and a busy timeout", () => {
    const db = openDatabase(join(tempDir(), "a.db"));
    const pragma = (name: string) => Object.values(db.$client.query(`PRAGMA ${name}`).get() as object)[0];
    expect(pragma("journal_mode")).toBe("wal");
    expect(pragma("synchronous")).toBe(2); // FULL
    expect(pragma("foreign_keys")).toBe(1);
    expect(pragma("busy_timeout")).toBe(5000);
    closeDatabase(db);
  });

  it("creates the data folder and the database owner-only", async () => {
    const dataDir = join(tempDir(), "nested", "data");
    const ctx = await bootContext(loadConfig({ CAIRN_DATA: dataDir, CAIRN_LOG: "silent" }));
    await writeSetting(ctx.db, systemClock, "k", 1);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(databaseFile(ctx.config))).toBe(0o600);
    expect(mode(`${databaseFile(ctx.config)}-wal`)).toBe(0o600);
    expect(mode(join(dataDir, "secret.key"))).toBe(0o600);
    closeDatabase(ctx.db);
  });

  it("keeps the instance secret across restarts, so sealed values still open", async () => {
    const dataDir = tempDir();
    const config = loadConfig({ CAIRN_DATA: dataDir, CAIRN_LOG: "silent" });
    const first = await bootContext(config);
    const sealed = first.secrets.seal("client secret", "test");
    closeDatabase(first.db);
    const second = await bootContext(config);
    expect(second.secrets.open(sealed, "test")).toBe("client secret");
    closeDatabase(second.db);
  });
});

describe("migrations", () => {
  it("are carried in the build and applied in journal order", () => {
    const migrations = bundledMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    expect(migrations.map((m) => m.when)).toEqual([...migrations.map((m) => m.when)].sort((a, b) => a - b));
  });

  it("applied twice change nothing the second time", () => {
    const db = openDatabase(join(tempDir(), "m.db"));
    const first = applyMigrations(db.$client);
    const schema = () => db.$client.query("SELECT type, name, sql FROM sqlite_master ORDER BY name").all();
    const before = schema();
    expect(first).toEqual(bundledMigrations().map((m) => m.tag));
    expect(applyMigrations(db.$client)).toEqual([]);
    expect(schema()).toEqual(before);
    const rows = db.$client.query('SELECT hash FROM "__drizzle_migrations"').all();
    expect(rows).toHaveLength(first.length);
    closeDatabase(db);
  });

  it("a second connection to the same file finds every migration applied", () => {
    const file = join(tempDir(), "race.db");
    const a = openDatabase(file);
    const b = openDatabase(file);
    const applied = [...applyMigrations(a.$client), ...applyMigrations(b.$client)];
    expect(applied).toEqual(bundledMigrations().map((m) => m.tag));
    closeDatabase(a);
    closeDatabase(b);
  });
});

describe("withTx", () => {
  it("rolls everything back when the work throws", async () => {
    const db = openDatabase(join(tempDir(), "tx.db"));
    applyMigrations(db.$client);
    await expect(
      withTx(db, async () => {
        await writeSetting(db, systemClock, "a", 1);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await readSetting(db, "a")).toBeUndefined();
    await withTx(db, () => withTx(db, () => writeSetting(db, systemClock, "b", 2)));
    expect(await readSetting(db, "b")).toBe(2);
    closeDatabase(db);
  });

  it("nests as savepoints: a failed inner part rolls back alone, at any depth, and the outer one commits", async () => {
    const db = openDatabase(join(tempDir(), "nest.db"));
    applyMigrations(db.$client);
    await withTx(db, async () => {
      await writeSetting(db, systemClock, "outer", 1);
      await expect(
        withTx(db, async () => {
          await writeSetting(db, systemClock, "inner", 1);
          await withTx(db, () => writeSetting(db, systemClock, "deepest", 1));
          throw new Error("inner fails");
        }),
      ).rejects.toThrow("inner fails");
      await withTx(db, () => writeSetting(db, systemClock, "sibling", 1));
      // Still inside the outer transaction, which stays open and usable.
      expect(db.$client.inTransaction).toBe(true);
    });
    expect(db.$client.inTransaction).toBe(false);
    const read = (key: string) => readSetting(db, key);
    expect([await read("outer"), await read("inner"), await read("deepest"), await read("sibling")]).toEqual([1, undefined, undefined, 1]);
    closeDatabase(db);
  });

  it("takes the write lock up front (IMMEDIATE): a second connection's writer waits instead of deadlocking on an upgrade", async () => {
    const file = join(tempDir(), "lock.db");
    const db = openDatabase(file);
    applyMigrations(db.$client);
    const other = openDatabase(file);
    other.$client.run("PRAGMA busy_timeout = 0");
    await withTx(db, () => {
      // Nothing written yet, and already the other connection cannot begin a write.
      expect(() => other.$client.run("BEGIN IMMEDIATE")).toThrow(/locked|busy/i);
    });
    other.$client.run("BEGIN IMMEDIATE");
    other.$client.run("ROLLBACK");
    closeDatabase(other);
    closeDatabase(db);
  });

  it("ends the transaction when COMMIT itself fails, leaving the connection usable", async () => {
    const db = openDatabase(join(tempDir(), "deferred.db"));
    applyMigrations(db.$client);
    // Foreign keys are on (openDatabase's pragmas).
    db.$client.run("CREATE TABLE parent (id INTEGER PRIMARY KEY)");
    db.$client.run("CREATE TABLE child (parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)");
    // A deferred foreign key fails at COMMIT, after the work has returned.
    await expect(withTx(db, () => db.$client.run("INSERT INTO child VALUES (7)"))).rejects.toThrow(/FOREIGN KEY/);
    expect(db.$client.inTransaction).toBe(false);
    expect(db.$client.query("SELECT count(*) AS n FROM child").get()).toEqual({ n: 0 });
    await withTx(db, () => writeSetting(db, systemClock, "after", 1));
    expect(await readSetting(db, "after")).toBe(1);
    closeDatabase(db);
  });
});

describe("afterCommit (events after commit by construction)", () => {
  const fresh = () => {
    const db = openDatabase(join(tempDir(), "after.db"));
    applyMigrations(db.$client);
    return db;
  };

  it("runs at once outside a transaction", () => {
    const db = fresh();
    const ran: string[] = [];
    afterCommit(db, () => ran.push("now"));
    expect(ran).toEqual(["now"]);
    closeDatabase(db);
  });

  it("waits for the outermost commit, not the inner savepoint's, and sees the committed row", async () => {
    const db = fresh();
    const seen: unknown[] = [];
    await withTx(db, async () => {
      await withTx(db, async () => {
        await writeSetting(db, systemClock, "k", 1);
        // The read starts when the work runs: on SQLite it runs at once.
        afterCommit(db, () => seen.push(readSetting(db, "k")));
      });
      // The inner transaction has returned: its savepoint is released but nothing is committed yet.
      expect(seen).toEqual([]);
      expect(db.$client.inTransaction).toBe(true);
    });
    expect(await Promise.all(seen)).toEqual([1]);
    closeDatabase(db);
  });

  it("drops the work of a rolled-back transaction, and of a rolled-back savepoint only", async () => {
    const db = fresh();
    const ran: string[] = [];
    await expect(
      withTx(db, () => {
        afterCommit(db, () => ran.push("outer"));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    await withTx(db, async () => {
      afterCommit(db, () => ran.push("kept"));
      try {
        await withTx(db, () => {
          afterCommit(db, () => ran.push("inner"));
          throw new Error("inner boom");
        });
      } catch {
        // The outer transaction goes on without the inner part.
      }
    });
    expect(ran).toEqual(["kept"]);
    closeDatabase(db);
  });

  it("delivers a bus event only after the outer transaction commits, never after a rollback", async () => {
    const db = fresh();
    const bus = createEventBus({ db, clock: systemClock, cluster: singleProcess() });
    const got: string[] = [];
    bus.subscribe("t1", (event) => got.push(event.type));
    await withTx(db, async () => {
      await withTx(db, () => bus.publish({ type: "todo:created", teamId: "t1", setId: "s1", data: {} }));
      expect(bus.lastEventId("t1")).toBe(0);
    });
    expect(bus.lastEventId("t1")).toBe(1);
    await expect(
      withTx(db, () => {
        bus.publish({ type: "todo:deleted", teamId: "t1", setId: "s1", data: {} });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await new Promise((resolve) => setImmediate(resolve));
    expect(got).toEqual(["todo:created"]);
    expect(bus.lastEventId("t1")).toBe(1);
    closeDatabase(db);
  });
});

describe("secret box", () => {
  it("round-trips, and refuses a value sealed for another purpose or tampered with", () => {
    const box = createSecretBox("an instance secret of enough length!!");
    const sealed = box.seal("hello", "purpose-a");
    expect(sealed).not.toContain("hello");
    expect(box.open(sealed, "purpose-a")).toBe("hello");
    expect(() => box.open(sealed, "purpose-b")).toThrow();
    // The second-to-last character, always changed (checking the last one let it stay the same 1 time in 64).
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === "A" ? "B" : "A") + sealed.slice(-1);
    expect(() => box.open(flipped, "purpose-a")).toThrow();
    expect(() => createSecretBox("another secret, same length......").open(sealed, "purpose-a")).toThrow();
  });
});

describe("logger", () => {
  it("writes JSON lines at or above its level only", () => {
    const lines: string[] = [];
    const log = createLogger("warn", (l) => lines.push(l));
    log.info("quiet");
    log.warn("loud", { a: 1 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ level: "warn", msg: "loud", a: 1 });
    const silent: string[] = [];
    createLogger("silent", (l) => silent.push(l)).error("x");
    expect(silent).toEqual([]);
  });
});
