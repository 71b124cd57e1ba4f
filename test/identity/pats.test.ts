import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { signInWithTotp, signUp, type SignedUp } from "../helpers/identity.ts";

const clock = manualClock();
let app: TestApp;
let admin: SignedUp;
let user: SignedUp;
const withPat = (secret: string, method: string, path: string, body?: unknown) => app.client().json(method, path, body, { authorization: `Bearer ${secret}` });

beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  admin = await signUp(app, "admin");
  user = await signUp(app, "pat");
});
afterAll(() => app.stop());

describe("personal access tokens", () => {
  it("are shown once with prefix cairn_pat_, stored hashed, and listed without the secret", async () => {
    const created = await user.browser.json("POST", "/api/oauth/me/tokens", { name: "backup script", scopes: ["profile", "teams:read"], expires_in_days: 30 });
    expect(created.status).toBe(201);
    expect(created.data.secret).toMatch(/^cairn_pat_[A-Za-z0-9_-]{40,}$/);
    expect(created.data.token).toMatchObject({ name: "backup script", scopes: ["profile", "teams:read"], prefix: created.data.secret.slice(0, 14) });
    expect(created.data.token.expires_at - clock.now()).toBe(30 * 86_400_000);
    const list = await user.browser.json("GET", "/api/oauth/me/tokens");
    expect(list.data.tokens).toHaveLength(1);
    expect(JSON.stringify(list.data)).not.toContain(created.data.secret);
    expect(JSON.stringify(await app.ctx.db.all(sql`SELECT * FROM personal_access_tokens`))).not.toContain(created.data.secret);
  });

  it("work as Bearer on /api/oauth/me within their scopes only", async () => {
    const { secret } = (await user.browser.json("POST", "/api/oauth/me/tokens", { name: "read", scopes: ["profile"] })).data;
    expect((await withPat(secret, "GET", "/api/oauth/me")).data.user.username).toBe("pat");
    const write = await withPat(secret, "PATCH", "/api/oauth/me", { name: "nope" });
    expect(write.status).toBe(403);
    expect(write.data.error).toBe("insufficient_scope");
    expect(write.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    // Session-only areas refuse tokens whatever their scopes.
    expect((await withPat(secret, "GET", "/api/oauth/me/sessions")).status).toBe(403);
    expect((await withPat(secret, "POST", "/api/oauth/me/tokens", { name: "x", scopes: ["profile"] })).status).toBe(403);
    const { secret: writer } = (await user.browser.json("POST", "/api/oauth/me/tokens", { name: "write", scopes: ["profile:write"] })).data;
    expect((await withPat(writer, "PATCH", "/api/oauth/me", { name: "Patty" })).data.user.name).toBe("Patty");
  });

  it("stop at once when revoked or expired, or when their user is disabled", async () => {
    const made = (await user.browser.json("POST", "/api/oauth/me/tokens", { name: "short", scopes: ["profile"], expires_in_days: 1 })).data;
    expect((await withPat(made.secret, "GET", "/api/oauth/me")).status).toBe(200);
    clock.advance(86_400_000 + 1);
    expect((await withPat(made.secret, "GET", "/api/oauth/me")).status).toBe(401);
    const other = (await user.browser.json("POST", "/api/oauth/me/tokens", { name: "revoke me", scopes: ["profile"] })).data;
    expect((await user.browser.json("DELETE", `/api/oauth/me/tokens/${other.token.id}`)).status).toBe(200);
    expect((await withPat(other.secret, "GET", "/api/oauth/me")).status).toBe(401);
    expect((await user.browser.json("DELETE", `/api/oauth/me/tokens/${other.token.id}`)).status).toBe(404);

    const victim = await signUp(app, "victim");
    const token = (await victim.browser.json("POST", "/api/oauth/me/tokens", { name: "t", scopes: ["profile"] })).data.secret;
    expect((await admin.browser.json("PATCH", `/api/oauth/admin/users/${victim.user.id}`, { disabled: true })).status).toBe(200);
    expect((await withPat(token, "GET", "/api/oauth/me")).status).toBe(401);
  });

  it("refuse unknown or admin-only scopes for non-admins, empty scopes and bad expiry", async () => {
    for (const body of [
      { name: "x", scopes: ["teams:read", "root"] },
      { name: "x", scopes: ["admin:users:read"] },
      { name: "x", scopes: [] },
      { name: "", scopes: ["profile"] },
      { name: "x", scopes: ["profile"], expires_in_days: 0 },
      { name: "x", scopes: ["profile"], expires_in_days: 1.5 },
      { name: "x", scopes: "profile" },
    ])
      expect((await user.browser.json("POST", "/api/oauth/me/tokens", body)).status).toBe(400);
    // Admin scopes need a sign-in with a second factor (admin_requires_mfa, on by default).
    expect((await admin.browser.json("POST", "/api/oauth/me/tokens", { name: "admin", scopes: ["admin:users:read"] })).status).toBe(403);
    const { browser } = await signInWithTotp(app, admin, clock.now);
    expect((await browser.json("POST", "/api/oauth/me/tokens", { name: "admin", scopes: ["admin:users:read"] })).status).toBe(201);
  });

  it("cannot be revoked by another user", async () => {
    const mine = (await user.browser.json("POST", "/api/oauth/me/tokens", { name: "mine", scopes: ["profile"] })).data;
    expect((await admin.browser.json("DELETE", `/api/oauth/me/tokens/${mine.token.id}`)).status).toBe(404);
    expect((await withPat(mine.secret, "GET", "/api/oauth/me")).status).toBe(200);
  });
});
