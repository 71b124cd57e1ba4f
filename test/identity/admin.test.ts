import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";

let app: TestApp;
let admin: SignedUp;
let user: SignedUp;
beforeAll(async () => {
  app = await startApp();
  admin = await signUp(app, "admin");
  user = await signUp(app, "plainuser", { name: "Plain Person" });
});
afterAll(() => app.stop());

describe("admin: users", () => {
  it("lists and searches users by username, email or name", async () => {
    const all = await admin.browser.json("GET", "/api/oauth/admin/users");
    expect(all.status).toBe(200);
    expect(all.data.total).toBeGreaterThanOrEqual(2);
    const found = await admin.browser.json("GET", "/api/oauth/admin/users?q=person");
    expect(found.data.users.map((u: { username: string }) => u.username)).toEqual(["plainuser"]);
    expect((await admin.browser.json("GET", "/api/oauth/admin/users?q=%25")).data.users).toEqual([]);
    expect((await admin.browser.json("GET", "/api/oauth/admin/users?limit=abc")).status).toBe(400);
  });

  it("is refused to non-admins and to tokens without the admin scope", async () => {
    expect((await user.browser.json("GET", "/api/oauth/admin/users")).status).toBe(403);
    const pat = (await admin.browser.json("POST", "/api/oauth/me/tokens", { name: "p", scopes: ["profile"] })).data.secret;
    const res = await app.client().json("GET", "/api/oauth/admin/users", undefined, { authorization: `Bearer ${pat}` });
    expect(res).toMatchObject({ status: 403, data: { error: "insufficient_scope" } });
  });

  it("changes roles and disables and enables users; a disabled user's sessions end", async () => {
    const u = await signUp(app, "toggle");
    const promoted = await admin.browser.json("PATCH", `/api/oauth/admin/users/${u.user.id}`, { role: "admin" });
    expect(promoted.data.user).toMatchObject({ role: "admin", disabled: false });
    expect((await u.browser.json("GET", "/api/oauth/admin/users")).status).toBe(200);
    await admin.browser.json("PATCH", `/api/oauth/admin/users/${u.user.id}`, { role: "user", disabled: true });
    expect((await u.browser.json("GET", "/api/auth/session")).status).toBe(401);
    const enabled = await admin.browser.json("PATCH", `/api/oauth/admin/users/${u.user.id}`, { disabled: false });
    expect(enabled.data.user.disabled).toBe(false);
    expect((await u.browser.json("GET", "/api/auth/session")).status).toBe(401); // ended sessions stay ended
  });

  it("keeps the last active admin", async () => {
    const res = await admin.browser.json("PATCH", `/api/oauth/admin/users/${admin.user.id}`, { role: "user" });
    expect(res.status).toBe(400);
    expect((await admin.browser.json("PATCH", `/api/oauth/admin/users/${admin.user.id}`, { disabled: true })).status).toBe(400);
    expect((await admin.browser.json("GET", "/api/oauth/admin/users")).status).toBe(200);
  });

  it("refuses bad input and unknown users", async () => {
    expect((await admin.browser.json("PATCH", `/api/oauth/admin/users/${user.user.id}`, { role: "root" })).status).toBe(400);
    expect((await admin.browser.json("PATCH", `/api/oauth/admin/users/${user.user.id}`, { disabled: "yes" })).status).toBe(400);
    expect((await admin.browser.json("PATCH", "/api/oauth/admin/users/nope", { disabled: true })).status).toBe(404);
  });
});

describe("admin: site config", () => {
  it("reads defaults and changes only the provided fields", async () => {
    const before = await admin.browser.json("GET", "/api/oauth/admin/config");
    expect(before.data.config).toMatchObject({ sudo_mode_ttl_minutes: 15, require_captcha_for_2fa: false, captcha_provider: "none", admin_requires_mfa: true });
    const res = await admin.browser.json("PATCH", "/api/oauth/admin/config", { registration: "closed", sudo_mode_ttl_minutes: 0 });
    expect(res.data.config).toMatchObject({ registration: "closed", sudo_mode_ttl_minutes: 0, captcha_provider: "none" });
    expect((await admin.browser.json("GET", "/api/oauth/admin/config")).data).toEqual(res.data);
  });

  it.each([
    { registration: "everyone" },
    { sudo_mode_ttl_minutes: -1 },
    { sudo_mode_ttl_minutes: 1.5 },
    { require_captcha_for_2fa: "no" },
    { captcha_provider: "" },
    { captcha_provider: "<x>" },
  ])("refuses %p and changes nothing", async (patch) => {
    const before = (await admin.browser.json("GET", "/api/oauth/admin/config")).data;
    expect((await admin.browser.json("PATCH", "/api/oauth/admin/config", patch)).status).toBe(400);
    expect((await admin.browser.json("GET", "/api/oauth/admin/config")).data).toEqual(before);
  });
});

describe("admin: audit log", () => {
  it("shows what admins and users did, newest first, paged", async () => {
    const res = await admin.browser.json("GET", "/api/oauth/admin/audit?limit=5");
    expect(res.status).toBe(200);
    expect(res.data.entries.length).toBeLessThanOrEqual(5);
    const ids = res.data.entries.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    const actions = (await admin.browser.json("GET", "/api/oauth/admin/audit?limit=200")).data.entries.map((e: { action: string }) => e.action);
    expect(actions).toContain("admin.config_updated");
    expect(actions).toContain("admin.user_updated");
    const older = await admin.browser.json("GET", `/api/oauth/admin/audit?before=${ids[ids.length - 1]}&limit=5`);
    expect(older.data.entries.every((e: { id: number }) => e.id < ids[ids.length - 1])).toBe(true);
    expect((await user.browser.json("GET", "/api/oauth/admin/audit")).status).toBe(403);
  });
});
