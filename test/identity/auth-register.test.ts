import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { updateSiteConfig } from "../../src/identity/site-config/site-config.ts";
import { users } from "../../src/identity/users/users.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { PASSWORD, signUp } from "../helpers/identity.ts";

const body = (username: string, extra: Record<string, unknown> = {}) => ({ username, email: `${username}@example.com`, password: PASSWORD, ...extra });
const userCount = async (app: TestApp) => (await app.ctx.db.select().from(users).all()).length;

describe("ARCHITECTURE section 4: first account", () => {
  it("the first account on an empty instance becomes admin and is signed in", async () => {
    const app = await startApp();
    try {
      const res = await app.json("POST", "/api/auth/register", body("Root_User", { name: "Root" }));
      expect(res.status).toBe(201);
      expect(res.data.user).toMatchObject({ username: "root_user", email: "root_user@example.com", name: "Root", role: "admin" });
      expect(typeof res.data.session_token).toBe("string");
      const cookie = res.headers.get("set-cookie") ?? "";
      expect(cookie).toContain("cairn_session=");
      expect(cookie).toContain("HttpOnly");
      expect(cookie).toContain("SameSite=Lax");
      expect((await app.json("GET", "/api/auth/session")).data.user.username).toBe("root_user");
      // The second account is a plain user, and only with registration allowed.
      expect((await app.client().json("POST", "/api/auth/register", body("second"))).status).toBe(403);
    } finally {
      await app.stop();
    }
  });

  it("needs X-Setup-Token for the first account when CAIRN_SETUP_TOKEN is set", async () => {
    const app = await startApp({ env: { CAIRN_SETUP_TOKEN: "the-setup-token" } });
    try {
      expect((await app.json("POST", "/api/auth/register", body("root"))).status).toBe(401);
      expect((await app.json("POST", "/api/auth/register", body("root"), { "x-setup-token": "wrong" })).status).toBe(401);
      expect(await userCount(app)).toBe(0);
      const ok = await app.json("POST", "/api/auth/register", body("root"), { "x-setup-token": "the-setup-token" });
      expect(ok.status).toBe(201);
    } finally {
      await app.stop();
    }
  });
});

describe("registration rules", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
    await signUp(app, "admin");
  });
  afterAll(() => app.stop());

  it.each([
    ["a short username", body("ab")],
    ["a long username", body("a".repeat(33))],
    ["a username with a dot", body("a.b")],
    ["a username with a space", body("a b")],
    ["a bad email", body("valid", { email: "nope" })],
    ["a short password", body("valid", { password: "123456789" })],
    ["the username as password", body("validname1", { password: "validname1" })],
    ["the email as password", body("valid", { email: "x@yy.io", password: "X@yy.io" })],
    ["a missing field", { username: "valid", email: "v@example.com" }],
    ["a number for a string", body("valid", { name: 5 })],
  ])("refuses %s with 400 invalid_request and creates nothing", async (_, payload) => {
    await updateSiteConfig(app.ctx, { registration: "open" });
    const before = await userCount(app);
    const res = await app.client().json("POST", "/api/auth/register", payload);
    expect(res.status).toBe(400);
    expect(res.data.error).toBe("invalid_request");
    expect(typeof res.data.error_description).toBe("string");
    expect(await userCount(app)).toBe(before);
  });

  it("keeps usernames and emails unique whatever their case", async () => {
    await updateSiteConfig(app.ctx, { registration: "open" });
    await signUp(app, "bob");
    const again = await app.client().json("POST", "/api/auth/register", body("BOB", { email: "other@example.com" }));
    expect(again).toMatchObject({ status: 409, data: { error: "conflict" } });
    const sameEmail = await app.client().json("POST", "/api/auth/register", body("bob2", { email: " Bob@Example.com " }));
    expect(sameEmail).toMatchObject({ status: 409, data: { error: "conflict" } });
  });

  it("follows the registration setting: closed refuses, invite needs an invitation", async () => {
    await updateSiteConfig(app.ctx, { registration: "closed" });
    expect((await app.client().json("POST", "/api/auth/register", body("carol"))).status).toBe(403);
    await updateSiteConfig(app.ctx, { registration: "invite" });
    expect((await app.client().json("POST", "/api/auth/register", body("carol"))).status).toBe(403);
    expect((await app.client().json("POST", "/api/auth/register", body("carol", { invite: "made-up" }))).status).toBe(403);
    expect(await userCount(app)).toBe(2);
  });
});

describe("invitations", () => {
  let app: TestApp;
  let admin: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    app = await startApp();
    admin = await signUp(app, "admin");
    await updateSiteConfig(app.ctx, { registration: "invite" });
  });
  afterAll(() => app.stop());

  it("are created, listed and deleted by admins, and refused to others", async () => {
    const created = await admin.browser.json("POST", "/api/oauth/admin/invites", { email: "Guest@Example.com", expires_in_hours: 24 });
    expect(created.status).toBe(201);
    expect(created.data.invite).toMatchObject({ email: "guest@example.com", status: "pending" });
    expect(created.data.url).toBe(`${app.url}/register?invite=${created.data.code}`);
    const list = await admin.browser.json("GET", "/api/oauth/admin/invites");
    expect(list.data.invites.map((i: { id: string }) => i.id)).toContain(created.data.invite.id);
    expect(JSON.stringify(list.data)).not.toContain(created.data.code);
    expect((await admin.browser.json("DELETE", `/api/oauth/admin/invites/${created.data.invite.id}`)).status).toBe(200);
    expect((await admin.browser.json("DELETE", `/api/oauth/admin/invites/${created.data.invite.id}`)).status).toBe(404);
    const user = await signUp(app, "plain");
    await updateSiteConfig(app.ctx, { registration: "invite" });
    expect((await user.browser.json("POST", "/api/oauth/admin/invites", {})).status).toBe(403);
  });

  it("are one use, and one bound to an email admits only that email", async () => {
    const bound = (await admin.browser.json("POST", "/api/oauth/admin/invites", { email: "dana@example.com" })).data.code;
    const wrong = await app.client().json("POST", "/api/auth/register", body("eve", { invite: bound }));
    expect(wrong.status).toBe(403);
    expect((await app.client().json("POST", "/api/auth/register", body("dana", { invite: bound }))).status).toBe(201);
    expect((await app.client().json("POST", "/api/auth/register", body("dana2", { email: "dana@example.com", invite: bound }))).status).toBe(409);
    const open = (await admin.browser.json("POST", "/api/oauth/admin/invites", {})).data.code;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => app.client().json("POST", "/api/auth/register", body(`racer${i}`, { invite: open }))),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
  });

  it("issue 42: the register and home pages learn whether accounts are open, and the one email an invitation admits", async () => {
    await updateSiteConfig(app.ctx, { registration: "invite" });
    const info = async (query = "") => (await app.client().json("GET", `/api/auth/registration${query}`)).data;
    // No mail server here: the pages say what is missing (issue 44).
    expect(await info()).toEqual({ registration: "invite", invite: null, mail: false });
    const bound = (await admin.browser.json("POST", "/api/oauth/admin/invites", { email: "Fern@Example.com" })).data;
    expect(await info(`?invite=${bound.code}`)).toEqual({
      registration: "invite",
      invite: { email: "fern@example.com", expires_at: bound.invite.expires_at },
      mail: false,
    });
    const anyone = (await admin.browser.json("POST", "/api/oauth/admin/invites", {})).data;
    expect((await info(`?invite=${encodeURIComponent(` ${anyone.code} `)}`)).invite).toEqual({ email: null, expires_at: anyone.invite.expires_at });
    expect(await info("?invite=made-up")).toEqual({ registration: "invite", invite: null, mail: false });
    // Used, it names nothing any more.
    expect((await app.client().json("POST", "/api/auth/register", body("fern", { email: "fern@example.com", invite: bound.code }))).status).toBe(201);
    expect((await info(`?invite=${bound.code}`)).invite).toBeNull();
    for (const registration of ["open", "closed", "invite"] as const) {
      await updateSiteConfig(app.ctx, { registration });
      expect((await info()).registration).toBe(registration);
    }
  });

  it("expire", async () => {
    const code = (await admin.browser.json("POST", "/api/oauth/admin/invites", { expires_in_hours: 1 })).data.code;
    await app.ctx.db.run(sql`UPDATE invitations SET expires_at = ${Date.now() - 1} WHERE used_at IS NULL`);
    expect((await app.client().json("POST", "/api/auth/register", body("late", { invite: code }))).status).toBe(403);
  });

  it("refuse bad input", async () => {
    expect((await admin.browser.json("POST", "/api/oauth/admin/invites", { expires_in_hours: 0 })).status).toBe(400);
    expect((await admin.browser.json("POST", "/api/oauth/admin/invites", { email: "not-an-email" })).status).toBe(400);
    expect((await admin.browser.json("POST", "/api/oauth/admin/invites", { expires_in_hours: "x" })).status).toBe(400);
  });
});
