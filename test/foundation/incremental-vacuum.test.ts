import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { join } from "node:path";
import { backupDatabase } from "../../src/db/backup.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { CONVERT_AT_START_MAX_BYTES, convertToIncremental, keptFreePages } from "../../src/db/vacuum.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { cli, startServer } from "../helpers/cli.ts";
import { tempDir } from "../helpers/temp.ts";

/**
 * Issue 43: the database file gives back what purges free. A new file is made with
 * `auto_vacuum = INCREMENTAL`, and the purge hands the freed pages back a few at a time, so under
 * steady fill and purge the file stops growing. An older file is converted once by `cairn migrate`
 * (or by the start itself while small), and a backup of it is made incremental.
 */
const pragma = (db: Database, name: string) => Object.values(db.query(`PRAGMA ${name}`).get() as Record<string, number>)[0] as number;

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.stop());

/** Rows the purge finds due, as many pages' worth as a busy hour of tokens. */
function fillDue(rows: number): void {
  const db = app.ctx.db.$client;
  const insert = db.prepare("INSERT INTO dpop_proof_jtis (key, expires_at) VALUES (?, ?)");
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`${crypto.randomUUID()}:${"k".repeat(64)}`, Date.now() - 1000);
  })();
}

describe("incremental vacuum (issue 43)", () => {
  it("a new database is made with auto_vacuum incremental, before its first table", () => {
    expect(pragma(app.ctx.db.$client, "auto_vacuum")).toBe(2);
  });

  it("a purge gives the pages it freed back, but for a small reserve: the page count falls back", async () => {
    const db = app.ctx.db.$client;
    await app.ctx.purges.run(Date.now());
    const empty = pragma(db, "page_count");
    fillDue(50_000);
    const full = pragma(db, "page_count");
    expect(full - empty).toBeGreaterThan(2000);
    const report = await app.ctx.purges.run(Date.now());
    expect(report.failures).toEqual([]);
    const reserve = keptFreePages(pragma(db, "page_count"));
    expect(report.pagesGivenBack).toBeGreaterThan(full - empty - reserve - 100);
    expect(pragma(db, "freelist_count")).toBeLessThanOrEqual(reserve);
    expect(pragma(db, "page_count") - empty).toBeLessThanOrEqual(reserve);
  });

  it("under fill and purge, again and again, the file keeps its size", async () => {
    const db = app.ctx.db.$client;
    const sizes: number[] = [];
    for (let cycle = 0; cycle < 4; cycle++) {
      fillDue(10_000);
      await app.ctx.purges.run(Date.now());
      sizes.push(pragma(db, "page_count"));
    }
    expect(new Set(sizes).size).toBe(1);
    expect(pragma(db, "freelist_count")).toBeLessThanOrEqual(keptFreePages(pragma(db, "page_count")));
  });
});

/** A database as Cairn made them before issue 43: WAL, every migration, no auto_vacuum. */
function olderDatabase(): { dir: string; file: string } {
  const dir = tempDir();
  const file = join(dir, "cairn.db");
  const db = new Database(file, { create: true });
  db.run("PRAGMA journal_mode = WAL");
  applyMigrations(db);
  db.run("INSERT INTO settings (key, value, updated_at) VALUES ('kept', '\"yes\"', 0)");
  expect(pragma(db, "auto_vacuum")).toBe(0);
  db.close();
  return { dir, file };
}

const kept = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return { autoVacuum: pragma(db, "auto_vacuum"), setting: (db.query("SELECT value FROM settings WHERE key = 'kept'").get() as { value: string }).value };
  } finally {
    db.close();
  }
};

describe("a database made before incremental vacuum (issue 43)", () => {
  it("is converted once by cairn migrate, whatever its size, keeping every row", () => {
    const { dir, file } = olderDatabase();
    const run = cli(["migrate"], { CAIRN_DATA: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("database rewritten once so that it gives back the space purges free");
    expect(kept(file)).toEqual({ autoVacuum: 2, setting: '"yes"' });
    expect(cli(["migrate"], { CAIRN_DATA: dir }).stdout).toBe("database is up to date\n");
  });

  it("is converted by the start itself while small, and left with a line naming cairn migrate when larger", async () => {
    const small = olderDatabase();
    const large = olderDatabase();
    const db = new Database(large.file);
    db.run("INSERT INTO settings (key, value, updated_at) VALUES ('bulk', ?, 0)", [JSON.stringify("x".repeat(CONVERT_AT_START_MAX_BYTES))]);
    db.close();
    for (const { dir, file, note } of [
      { ...small, note: "database rewritten once so that it gives back the space purges free" },
      { ...large, note: "too large to convert at start: stop Cairn and run `cairn migrate` once" },
    ]) {
      const server = await startServer({ CAIRN_DATA: dir });
      const log = [...server.log];
      expect(await server.stop()).toBe(0);
      expect(log.some((line) => line.includes(note))).toBe(true);
      expect(kept(file)).toEqual({ autoVacuum: file === small.file ? 2 : 0, setting: '"yes"' });
    }
  });

  it("is converted only while no bigger than asked, and once", () => {
    const { file } = olderDatabase();
    const db = new Database(file);
    try {
      expect(convertToIncremental(db, 1024)).toBe("too large");
      expect(pragma(db, "auto_vacuum")).toBe(0);
      expect(convertToIncremental(db)).toBe("converted");
      expect(convertToIncremental(db)).toBe("incremental");
    } finally {
      db.close();
    }
  });

  it("is backed up as an incremental one, so a restore converts it", () => {
    const { dir, file } = olderDatabase();
    const target = join(dir, "backup.db");
    backupDatabase(file, target);
    expect(kept(target)).toEqual({ autoVacuum: 2, setting: '"yes"' });
    expect(kept(file).autoVacuum).toBe(0);
  });
});
