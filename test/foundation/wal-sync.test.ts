import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { type AnyElysia, Elysia } from "elysia";
import { type Db, openDatabase } from "../../src/db/client.ts";
import { commitBeforeAnswer } from "../../src/db/commit-before-answer.ts";
import { createGroupCommit } from "../../src/db/group-commit.ts";
import { afterCommit, withTx } from "../../src/db/tx.ts";
import { type WalSync, walSync } from "../../src/db/wal-sync.ts";
import { httpErrors } from "../../src/shared/http-errors.ts";
import { createLogger } from "../../src/shared/log.ts";
import { startApp } from "../helpers/app.ts";
import { tempDir } from "../helpers/temp.ts";

/**
 * One process serving (issue 12): a batch's COMMIT leaves out its fsync, and the WAL is fsynced
 * off the event loop. Nothing may be answered, and no after-commit work run, before an fsync
 * that began after the COMMIT has returned. The fsync here is the real one on the real WAL file,
 * held by the test until it lets it run.
 */
type HeldSync = WalSync & { started: number; running: number; most: number; release(error?: Error): void };

function heldSync(file: string): HeldSync {
  const real = walSync(`${file}-wal`);
  const releases: ((error?: Error) => void)[] = [];
  const held: HeldSync = {
    started: 0,
    running: 0,
    most: 0,
    later() {
      held.started++;
      held.running++;
      held.most = Math.max(held.most, held.running);
      return new Promise<void>((resolve, reject) => {
        releases.push((error) => {
          held.running--;
          if (error) return reject(error);
          real.now();
          resolve();
        });
      });
    },
    now: () => real.now(),
    close: () => real.close(),
    release: (error) => releases.shift()?.(error),
  };
  return held;
}

function setup(sync: (file: string) => WalSync = heldSync) {
  const file = join(tempDir(), "w.db");
  const db = openDatabase(file);
  const held = sync(file);
  db.$group = createGroupCommit(db, held);
  db.$client.run("CREATE TABLE item (id INTEGER PRIMARY KEY)");
  const events: number[] = [];
  const write = (id: number) => {
    db.$client.run("INSERT INTO item (id) VALUES (?)", [id]);
    afterCommit(db, () => events.push(id));
  };
  const server = new Elysia()
    .use(httpErrors(createLogger("silent")))
    .use(commitBeforeAnswer(db))
    .post("/write/:id", ({ params }) => {
      write(Number(params.id));
      return { ok: true };
    })
    .get("/count", () => db.$client.query("SELECT count(*) AS n FROM item").get());
  return { db, held: held as HeldSync, events, server, file };
}

const call = (server: AnyElysia, method: string, path: string) => server.handle(new Request(`http://localhost${path}`, { method }));
/** Whether `promise` has settled within a few turns of the event loop. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await Bun.sleep(20);
  return settled;
}
const untilStarted = async (held: HeldSync, n: number) => {
  for (let i = 0; i < 200 && held.started < n; i++) await Bun.sleep(1);
  expect(held.started).toBe(n);
};

describe("group commit with the WAL fsync off the event loop", () => {
  test("the connection is at synchronous=NORMAL only inside a batch, FULL outside it", () => {
    const { db } = setup((file) => walSync(`${file}-wal`));
    // Prepared afresh each time: SQLite reads the level when it prepares the statement.
    const level = () => (db.$client.prepare("PRAGMA synchronous").get() as { synchronous: number }).synchronous;
    for (let batch = 0; batch < 2; batch++) {
      expect(level()).toBe(2);
      db.$group.join();
      expect(level()).toBe(1);
      db.$group.flush();
      expect(level()).toBe(2);
    }
  });

  test("an answer, a read's too, and the batch's events leave only once the fsync after its COMMIT returned", async () => {
    const { held, events, server, db } = setup();
    const write = call(server, "POST", "/write/1");
    await untilStarted(held, 1);
    // Committed (another connection sees the row), not yet durable: nothing leaves.
    const other = openDatabase(db.$client.filename);
    expect(other.$client.query("SELECT count(*) AS n FROM item").get()).toEqual({ n: 1 });
    other.$client.close();
    const read = call(server, "GET", "/count");
    expect(await isSettled(write)).toBe(false);
    expect(await isSettled(read)).toBe(false);
    expect(events).toEqual([]);
    held.release();
    expect((await write).status).toBe(200);
    expect(await (await read).json()).toEqual({ n: 1 });
    expect(events).toEqual([1]);
  });

  test("writes that arrive during an fsync gather in one open batch, committed and synced once it returns; fsyncs never overlap", async () => {
    const { held, server, db } = setup();
    const first = call(server, "POST", "/write/1");
    await untilStarted(held, 1);
    const second = call(server, "POST", "/write/2");
    await Bun.sleep(20);
    const third = call(server, "POST", "/write/3");
    await Bun.sleep(20);
    // Still open: another connection sees only the first write.
    const other = openDatabase(db.$client.filename);
    expect(other.$client.query("SELECT count(*) AS n FROM item").get()).toEqual({ n: 1 });
    other.$client.close();
    expect(held.started).toBe(1);
    held.release();
    expect((await first).status).toBe(200);
    await untilStarted(held, 2); // one COMMIT and one fsync for both
    expect(await isSettled(second)).toBe(false);
    held.release();
    expect([(await second).status, (await third).status]).toEqual([200, 200]);
    expect(held.started).toBe(2);
    expect(held.most).toBe(1);
  });

  test("a failed fsync refuses what it covered, what is open (rolled back) and every request after it, reads too", async () => {
    const { held, db } = setup();
    const failures: number[] = [];
    db.$group.observeFailures((_error, batch) => failures.push(batch));
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = new Elysia()
      .use(httpErrors(createLogger("silent")))
      .use(commitBeforeAnswer(db))
      .post("/slow", async () => {
        db.$client.run("INSERT INTO item (id) VALUES (10)");
        await gate; // a signature, a fetch: its batch commits and starts syncing meanwhile
        return { ok: true };
      })
      .post("/fast/:id", ({ params }) => {
        db.$client.run("INSERT INTO item (id) VALUES (?)", [Number(params.id)]);
        return { ok: true };
      })
      .get("/count", () => db.$client.query("SELECT count(*) AS n FROM item").get());
    const slow = call(server, "POST", "/slow");
    await untilStarted(held, 1); // batch 1 (the slow write) is syncing
    const fast = call(server, "POST", "/fast/11");
    await Bun.sleep(20); // batch 2 open, gathering until the fsync returns
    release(); // the slow request now waits for the newest batch, 2
    await Bun.sleep(5);
    held.release(new Error("EIO: i/o error, fsync"));
    const answers = [await slow, await fast];
    expect(answers.map((r) => r.status)).toEqual([503, 503]);
    expect(await answers[0]?.json()).toEqual({ error: "Service unavailable", code: "service_unavailable" });
    expect(failures).toEqual([1, 2]);
    expect(db.$group.failure()?.message).toBe("EIO: i/o error, fsync");
    // Batch 2 never committed; batch 1 did, with its durability unknown: nothing is shown or taken any more.
    expect(db.$client.query("SELECT id FROM item").all()).toEqual([{ id: 10 }]);
    expect((await call(server, "POST", "/fast/12")).status).toBe(503);
    expect((await call(server, "GET", "/count")).status).toBe(503);
    expect(held.started).toBe(1);
    expect(db.$client.query("SELECT count(*) AS n FROM item").get()).toEqual({ n: 1 });
  });

  test("a batch SQLite rolled back by itself (a full disk) is refused, and what was written since is synced at once", async () => {
    const { held, db, server: plain } = setup();
    let nows = 0;
    const now = held.now;
    held.now = () => {
      nows++;
      now();
    };
    const server = plain.post("/lost", () => {
      db.$client.run("INSERT INTO item (id) VALUES (20)");
      db.$client.run("ROLLBACK"); // what SQLite does on SQLITE_FULL or an I/O error mid-batch
      db.$client.run("INSERT INTO item (id) VALUES (21)"); // autocommits, at the batch's NORMAL
      return { ok: true };
    });
    const res = await call(server, "POST", "/lost");
    expect(res.status).toBe(503);
    expect(nows).toBe(1);
    expect((db.$client.prepare("PRAGMA synchronous").get() as { synchronous: number }).synchronous).toBe(2);
    // The group goes on: the next write opens a batch of its own.
    const next = call(server, "POST", "/write/22");
    await untilStarted(held, 1);
    held.release();
    expect((await next).status).toBe(200);
    expect(db.$client.query("SELECT id FROM item ORDER BY id").all()).toEqual([{ id: 21 }, { id: 22 }]);
  });

  test("afterCommit outside a transaction waits for the batch being synced; flush during an fsync settles it at once", async () => {
    const { held, server, db } = setup();
    const write = call(server, "POST", "/write/1");
    await untilStarted(held, 1);
    const events: string[] = [];
    afterCommit(db, () => events.push("after"));
    await Bun.sleep(10);
    expect(events).toEqual([]);
    db.$group.flush(); // shutdown while the fsync runs: synced on this thread, answered
    expect((await write).status).toBe(200);
    await Bun.sleep(0);
    expect(events).toEqual(["after"]);
    held.release(); // the fsync's own end then finds nothing left to settle
    await Bun.sleep(5);
    expect(events).toEqual(["after"]);
  });

  test("a loss noticed by a write whose fsync then fails: no transaction is left open, the break is reported once, no refused event leaves", async () => {
    const { held, db, server, events } = setup();
    const breaks: string[] = [];
    db.$group.observeBreak((_error, what) => breaks.push(what));
    const first = call(server, "POST", "/write/1");
    await untilStarted(held, 1); // batch 1 syncing, its event queued
    const second = call(server, "POST", "/write/2");
    await Bun.sleep(10); // batch 2 open
    db.$client.run("ROLLBACK"); // SQLite ends batch 2 by itself (an I/O error)
    held.now = () => {
      throw new Error("EIO: i/o error, fsync");
    };
    const third = call(server, "POST", "/write/3"); // notices the loss; the fsync after it fails
    expect([(await second).status, (await third).status, (await first).status]).toEqual([503, 503, 503]);
    expect(db.$client.inTransaction).toBe(false);
    expect((db.$client.prepare("PRAGMA synchronous").get() as { synchronous: number }).synchronous).toBe(2);
    held.release(); // the fsync in flight returns fine now: batch 1 stays refused, its event stays home
    await Bun.sleep(10);
    expect(events).toEqual([]);
    expect(breaks).toEqual(["WAL fsync failed"]);
    db.$group.flush();
    expect(db.$client.inTransaction).toBe(false);
  });

  test("flush at shutdown whose fsync fails refuses every batch it held, none left waiting", async () => {
    const { held, db, server } = setup();
    const first = call(server, "POST", "/write/1");
    await untilStarted(held, 1);
    const second = call(server, "POST", "/write/2");
    await Bun.sleep(10);
    held.now = () => {
      throw new Error("EIO: i/o error, fsync");
    };
    db.$group.flush();
    expect([(await first).status, (await second).status]).toEqual([503, 503]);
  });

  test("withTx after SQLite rolled a batch back: the lost batch's event never leaves, its own does", async () => {
    const { held, db, events } = setup();
    db.$group.join();
    db.$client.run("INSERT INTO item (id) VALUES (1)");
    afterCommit(db, () => events.push(1));
    db.$client.run("ROLLBACK"); // by SQLite itself
    await withTx(db, () => {
      db.$client.run("INSERT INTO item (id) VALUES (2)");
      afterCommit(db, () => events.push(2));
    });
    expect(events).toEqual([2]);
    expect(held.started).toBe(0);
    expect(db.$client.query("SELECT id FROM item").all()).toEqual([{ id: 2 }]);
  });

  test("after-commit work that throws while a batch syncs is reported, and the rest goes on", async () => {
    const { held, db, server, events } = setup();
    const failures: string[] = [];
    db.$group.observeFailures((error, batch) => failures.push(`${batch}: ${error.message}`));
    const write = call(server, "POST", "/write/1");
    await untilStarted(held, 1);
    afterCommit(db, () => {
      throw new Error("listener broke");
    });
    afterCommit(db, () => events.push(99));
    held.release();
    expect((await write).status).toBe(200);
    await Bun.sleep(5);
    expect(events).toEqual([1, 99]);
    expect(failures).toEqual(["0: listener broke"]);
  });

  test("the WAL is fsynced off the event loop only when one process serves", async () => {
    for (const [workers, deferred] of [
      ["1", true],
      ["2", false],
    ] as const) {
      const app = await startApp({ env: { CAIRN_WORKERS: workers } });
      expect(app.ctx.db.$walSync !== null).toBe(deferred);
      await app.stop();
    }
  });

  test("with the real fsync: every batch is synced once, and closing syncs what is pending", async () => {
    const file = join(tempDir(), "real.db");
    const db: Db = openDatabase(file, { syncOffLoop: true });
    const real = db.$walSync as WalSync;
    let syncs = 0;
    const later = real.later;
    real.later = () => {
      syncs++;
      return later();
    };
    db.$client.run("CREATE TABLE item (id INTEGER PRIMARY KEY)");
    const server = new Elysia().use(commitBeforeAnswer(db)).post("/write/:id", ({ params }) => {
      db.$client.run("INSERT INTO item (id) VALUES (?)", [Number(params.id)]);
      return { ok: true };
    });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call(server, "POST", `/write/${i + 1}`)));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(syncs).toBeGreaterThanOrEqual(1);
    expect(syncs).toBeLessThanOrEqual(20);
    db.$group.join();
    db.$client.run("INSERT INTO item (id) VALUES (100)");
    const pending = db.$group.settled() as Promise<void>;
    db.$group.flush(); // shutdown: commits and syncs at once
    await pending;
    const reopened = openDatabase(file);
    expect(reopened.$client.query("SELECT count(*) AS n FROM item").get()).toEqual({ n: 21 });
    reopened.$client.close();
    db.$client.close();
    real.close();
  });
});
