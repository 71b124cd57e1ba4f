import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { createApp } from "../../src/app.ts";
import { bootContext } from "../../src/boot.ts";
import { loadConfig } from "../../src/config/config.ts";
import { BATCH_ROWS, nextBatchRows } from "../../src/context/purges.ts";
import { closeDatabase } from "../../src/db/client.ts";
import { createLogger } from "../../src/shared/log.ts";
import { startApp, type TestApp } from "../helpers/app.ts";

/**
 * Issue 43: a purge costs what it deletes. Every purge finds its rows through an index, deletes
 * them a batch at a time, and lets other work (timers, requests) run between batches; start-up
 * reads nothing of the token tables.
 */
const TOKEN_TABLES = ["oauth_grants", "access_tokens", "refresh_tokens", "machine_access_tokens", "authorization_codes"];

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.stop());

const rows = (table: string) => (app.ctx.db.$client.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe("purges (issue 43)", () => {
  it("each finds its rows through an index, never by reading its whole table", () => {
    const plans = [...app.ctx.purges.steps].flatMap(([name, step]) => (step.plan ? [{ name, ...step.plan() }] : []));
    expect(plans.length).toBeGreaterThan(25);
    for (const { name, table, steps } of plans) {
      const fullReads = steps.filter((detail) => !/^SEARCH \S+ USING (COVERING )?INDEX \S+ \(/.test(detail));
      expect({ name, table, fullReads }).toEqual({ name, table, fullReads: [] });
    }
  });

  it("sizes each purge's batches from what its last one took: halfway toward the turn's budget, within bounds", () => {
    expect(nextBatchRows(100, 100, 2)).toBe(100);
    expect(nextBatchRows(100, 100, 8)).toBe(50);
    expect(nextBatchRows(100, 100, 0.5)).toBe(200);
    expect(nextBatchRows(100, 40, 2)).toBe(63); // a last, partial batch: judged by the rows it deleted
    expect(nextBatchRows(100, 100, 1000)).toBe(BATCH_ROWS.min);
    expect(nextBatchRows(900, 900, 0)).toBe(BATCH_ROWS.max);
  });

  it("with nothing due, each purge is one batch that deletes nothing", async () => {
    const report = await app.ctx.purges.run(Date.now());
    expect(report).toMatchObject({ deleted: 0, batches: app.ctx.purges.steps.size, failures: [] });
  });

  it("deletes many rows in several batches, and timers and an HTTP request run between them", async () => {
    const due = 20 * BATCH_ROWS.max;
    const db = app.ctx.db.$client;
    const insert = db.prepare("INSERT INTO pow_stamps (stamp_hash, expires_at) VALUES (?, ?)");
    db.transaction(() => {
      for (let i = 0; i < due; i++) insert.run(`stamp-${i}`, Date.now() - 1000);
    })();
    const seen: number[] = [];
    let answeredWith: number | null = null;
    let asked: Promise<void> | null = null;
    let done = false;
    // A timer each turn it gets: what it sees is how far the purge has got.
    const watch = () => {
      if (done) return;
      const left = rows("pow_stamps");
      seen.push(left);
      if (!asked && left < due)
        asked = fetch(`${app.url}/healthz`).then(() => {
          answeredWith = rows("pow_stamps");
        });
      setTimeout(watch, 0);
    };
    setTimeout(watch, 0);
    const report = await app.ctx.purges.run(Date.now());
    done = true;
    await asked;
    expect(report.failures).toEqual([]);
    expect(report.deleted).toBe(due);
    expect(rows("pow_stamps")).toBe(0);
    // Seen part-way many times: the batches were apart, with turns of other work between them.
    expect(new Set(seen.filter((left) => left > 0 && left < due)).size).toBeGreaterThanOrEqual(10);
    // The request started once the purge had begun on this table was answered before it ended.
    expect(answeredWith).toBeGreaterThan(0);
  });
});

describe("start-up (issue 43)", () => {
  it("prepares no statement that reads the token tables", async () => {
    const config = loadConfig({ CAIRN_DATA: app.dataDir, PORT: "0", CAIRN_ISSUER: app.url });
    const statements: string[] = [];
    const proto = Database.prototype as unknown as Record<string, (this: Database, sql: string, ...rest: unknown[]) => unknown>;
    const originals = Object.fromEntries(["prepare", "query", "run", "exec"].map((m) => [m, proto[m]]));
    for (const [m, original] of Object.entries(originals))
      proto[m] = function (this: Database, sql: string, ...rest: unknown[]) {
        if (typeof sql === "string") statements.push(sql);
        return (original as (...a: unknown[]) => unknown).call(this, sql, ...rest);
      };
    let ctx: Awaited<ReturnType<typeof bootContext>> | undefined;
    try {
      ctx = await bootContext(config, { log: createLogger("silent") });
      createApp(ctx);
    } finally {
      Object.assign(proto, originals);
      if (ctx) closeDatabase(ctx.db);
    }
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter((sql) => TOKEN_TABLES.some((table) => sql.includes(table)))).toEqual([]);
  });
});
