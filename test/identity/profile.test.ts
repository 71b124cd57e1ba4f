import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { startApp, type TestApp } from "../helpers/app.ts";
import { PASSWORD, signUp } from "../helpers/identity.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
  await signUp(app, "admin");
});
afterAll(() => app.stop());

describe("profile", () => {
  it("reads and updates name, picture and email; a new email is unverified and normalized", async () => {
    const u = await signUp(app, "paula");
    const res = await u.browser.json("PATCH", "/api/oauth/me", { name: "  Paula P ", picture: "https://img.example.com/p.png", email: " Paula@New.example " });
    expect(res.status).toBe(200);
    expect(res.data.user).toMatchObject({ name: "Paula P", picture: "https://img.example.com/p.png", email: "paula@new.example", email_verified: false });
    expect((await u.browser.json("GET", "/api/oauth/me")).data.user.name).toBe("Paula P");
    expect((await u.browser.json("PATCH", "/api/oauth/me", { picture: "" })).data.user.picture).toBe("");
  });

  it.each([
    { picture: "javascript:alert(1)" },
    { picture: "http://img.example.com/p.png" },
    { picture: "not a url" },
    { email: "nope" },
    { name: "x".repeat(101) },
    { name: 5 },
  ])("refuses %p with 400 and changes nothing", async (patch) => {
    const u = await signUp(app, `p${Math.random().toString(36).slice(2, 8)}`);
    const before = (await u.browser.json("GET", "/api/oauth/me")).data;
    expect((await u.browser.json("PATCH", "/api/oauth/me", patch)).status).toBe(400);
    expect((await u.browser.json("GET", "/api/oauth/me")).data).toEqual(before);
  });

  it("refuses an email another account has", async () => {
    const u = await signUp(app, "quinn");
    expect((await u.browser.json("PATCH", "/api/oauth/me", { email: "ADMIN@example.com" })).status).toBe(409);
  });
});

describe("change password", () => {
  it("needs the current password, checks the new one, and ends the other sessions", async () => {
    const u = await signUp(app, "rita");
    const laptop = app.client();
    await laptop.json("POST", "/api/auth/login", { login: "rita", password: PASSWORD });
    expect((await u.browser.json("POST", "/api/oauth/me/password", { current_password: "wrong password", new_password: "brand new secret" })).status).toBe(400);
    expect((await u.browser.json("POST", "/api/oauth/me/password", { current_password: PASSWORD, new_password: "short" })).status).toBe(400);
    expect((await u.browser.json("POST", "/api/oauth/me/password", { current_password: PASSWORD, new_password: "rita" })).status).toBe(400);
    expect((await laptop.json("GET", "/api/auth/session")).status).toBe(200);
    const ok = await u.browser.json("POST", "/api/oauth/me/password", { current_password: PASSWORD, new_password: "brand new secret" });
    expect(ok.status).toBe(200);
    expect((await laptop.json("GET", "/api/auth/session")).status).toBe(401);
    expect((await u.browser.json("GET", "/api/auth/session")).status).toBe(200);
    expect((await app.client().json("POST", "/api/auth/login", { login: "rita", password: PASSWORD })).status).toBe(401);
    expect((await app.client().json("POST", "/api/auth/login", { login: "rita", password: "brand new secret" })).status).toBe(200);
  });
});
