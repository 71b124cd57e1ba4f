import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { count } from "drizzle-orm";
import { authzSessions } from "../../src/forward-auth/sessions/authz-sessions.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import { onPostgres } from "../helpers/pg-store.ts";

/** Forward auth's cookies past their end go with the purge job, a batch at a time, through their index. */
const clock = manualClock();
let app: TestApp;
let admin: SignedUp;
const rows = async () => (await app.ctx.db.select({ n: count() }).from(authzSessions).get())?.n;

beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  admin = await signUp(app, "admin");
  expect((await admin.browser.json("POST", "/api/oauth/admin/forward-auth/rules", { host: "app.home.test", allow: { everyone: true } })).status).toBe(201);
});
afterAll(() => app.stop());

describe("the purge of forward auth cookies", () => {
  // How SQLite finds the rows (EXPLAIN QUERY PLAN): PostgreSQL has a planner of its own.
  it.skipIf(onPostgres)("finds them through an index", () => {
    const plan = app.ctx.purges.steps.get("forward auth cookies")?.plan?.();
    expect(plan?.table).toBe("forward_auth_sessions");
    expect(
      plan?.steps.every(
        (s) => s.includes("USING INDEX forward_auth_sessions_expires_idx") || s.includes("USING COVERING INDEX forward_auth_sessions_expires_idx"),
      ),
    ).toBe(true);
  });

  it("deletes those past their end, in batches, and keeps the live ones", async () => {
    const url = encodeURIComponent("https://app.home.test/");
    // As 150 browsers of one session would: each without a forward auth cookie yet.
    const fresh = () =>
      admin.browser.fetch(`/api/authz/continue?url=${url}`, { headers: { cookie: `cairn_session=${admin.browser.cookies.get("cairn_session")}` } });
    for (let i = 0; i < 150; i++) expect((await fresh()).status).toBe(302);
    expect(await rows()).toBe(150);
    // A day later the session slides on (Cairn uses it), and one cookie more is made with the later end.
    clock.advance(86_400_000);
    expect((await fresh()).status).toBe(302);
    expect((await app.ctx.purges.run(clock.now())).failures).toEqual([]);
    expect(await rows()).toBe(151);
    clock.advance(13 * 86_400_000 + 1);
    const report = await app.ctx.purges.run(clock.now());
    expect(report.failures).toEqual([]);
    expect(report.batches).toBeGreaterThan(app.ctx.purges.steps.size);
    expect(await rows()).toBe(1);
  });
});
