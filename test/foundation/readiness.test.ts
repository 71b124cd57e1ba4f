import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { BUSY_TIMEOUT_MS } from "../../src/db/client.ts";
import { startApp, type TestApp } from "../helpers/app.ts";

/*
 * GET /readyz (issue 16): ready means the database answers a read and can take a write now.
 * Not ready is a 503 with the reason in JSON, never a 500; /healthz (liveness) is unaffected.
 */
describe("GET /readyz", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app.stop());

  const ready = async () => {
    const res = await fetch(`${app.url}/readyz`);
    return { status: res.status, cacheControl: res.headers.get("cache-control"), body: (await res.json()) as Record<string, unknown> };
  };

  it("answers 200 while the database reads and writes", async () => {
    expect(await ready()).toEqual({ status: 200, cacheControl: "no-store", body: { ok: true, database: "ok", version: app.ctx.version } });
  });

  it("answers 503 with the reason while another connection holds the write lock past the short wait, and 200 once it lets go", async () => {
    const other = new Database(join(app.dataDir, "cairn.db"));
    // The wait the check asks the lock with, read as it asks: the short wait, not the 5 s every write would wait.
    const client = app.ctx.db.$client;
    const waits: number[] = [];
    const run = client.run;
    client.run = function (this: typeof client, ...args: Parameters<typeof run>) {
      if (args[0] === "BEGIN IMMEDIATE") waits.push((client.query("PRAGMA busy_timeout").get() as { timeout: number }).timeout);
      return run.apply(this, args);
    } as typeof run;
    try {
      other.run("BEGIN IMMEDIATE");
      const { status, body } = await ready();
      expect(status).toBe(503);
      expect(body).toMatchObject({ ok: false, database: "locked", version: app.ctx.version });
      expect(String(body.reason)).toContain("write lock");
      expect(waits.length).toBeGreaterThan(0);
      for (const wait of waits) expect(wait).toBeLessThan(BUSY_TIMEOUT_MS);
      expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
      other.run("ROLLBACK");
      expect((await ready()).status).toBe(200);
    } finally {
      client.run = run;
      other.close();
    }
  });

  it("restores the serving connection's busy timeout after the check", async () => {
    await ready();
    expect(app.ctx.db.$client.query("PRAGMA busy_timeout").get()).toEqual({ timeout: 5000 });
  });

  it("answers 503, not 500, when the database is gone", async () => {
    const doomed = await startApp();
    doomed.ctx.db.$client.close();
    const res = await fetch(`${doomed.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ ok: false, database: "unavailable" });
    await doomed.stop().catch(() => {});
  });
});
