import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { updateUserAsAdmin } from "../../src/identity/admin/users-admin.service.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { PASSWORD, signUp } from "../helpers/identity.ts";

describe("login", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
    await signUp(app, "admin");
    await signUp(app, "alice", { email: "alice@example.com" });
  });
  afterAll(() => app.stop());

  it("signs in by username or email, any case, and answers the session", async () => {
    for (const login of ["alice", "ALICE", " alice@example.com ", "Alice@Example.com"]) {
      const browser = app.client();
      const res = await browser.json("POST", "/api/auth/login", { login, password: PASSWORD });
      expect(res.status).toBe(200);
      expect(res.data.user.username).toBe("alice");
      const session = await browser.json("GET", "/api/auth/session");
      expect(session.data.session).toMatchObject({ amr: ["pwd"], acr: "pwd" });
      expect(typeof session.data.session.sid).toBe("string");
      expect(typeof session.data.session.auth_time).toBe("number");
    }
  });

  it("gives one answer for an unknown user and a wrong password", async () => {
    const unknown = await app.client().json("POST", "/api/auth/login", { login: "nobody", password: PASSWORD });
    const wrong = await app.client().json("POST", "/api/auth/login", { login: "alice", password: "wrong password" });
    expect(unknown.status).toBe(401);
    expect(unknown.data).toEqual(wrong.data);
    expect(wrong.data).toEqual({ error: "invalid_credentials", error_description: "Wrong username or password." });
  });

  it("refuses malformed bodies with 400", async () => {
    expect((await app.client().json("POST", "/api/auth/login", { login: "alice" })).status).toBe(400);
    expect((await app.client().json("POST", "/api/auth/login", "{bad")).data.error).toBe("invalid_request");
    expect((await app.client().json("POST", "/api/auth/login", [])).status).toBe(400);
  });

  it("refuses a sign-in posted from another site (login CSRF)", async () => {
    const res = await app.client().json("POST", "/api/auth/login", { login: "alice", password: PASSWORD }, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
  });

  it("refuses a disabled user, and a disabled user's sessions stop at once", async () => {
    const carol = await signUp(app, "carol");
    expect((await carol.browser.json("GET", "/api/auth/session")).status).toBe(200);
    await updateUserAsAdmin(app.ctx, "test", carol.user.id, { disabled: true });
    expect((await carol.browser.json("GET", "/api/auth/session")).status).toBe(401);
    expect((await carol.bearer("GET", "/api/auth/session")).status).toBe(401);
    const login = await app.client().json("POST", "/api/auth/login", { login: "carol", password: PASSWORD });
    expect(login.status).toBe(403);
  });
});

describe("login rate limits", () => {
  it("after 10 failures in 15 minutes an account answers 429 with Retry-After, even to the right password, and a restart does not reset it", async () => {
    const clock = manualClock();
    let app = await startApp({ overrides: { clock } });
    await signUp(app, "admin");
    await signUp(app, "target");
    for (let i = 0; i < 10; i++) {
      // Spread over addresses, so the per-account limit is what trips.
      const res = await app.client().json("POST", "/api/auth/login", { login: "target", password: `wrong-${i}` }, { "x-forwarded-for": `10.0.0.${i}` });
      expect(res.status).toBe(401);
    }
    const locked = await app.client().json("POST", "/api/auth/login", { login: "target", password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.data.error).toBe("too_many_attempts");
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(locked.headers.get("retry-after"))).toBeLessThanOrEqual(15 * 60);

    await app.stop();
    app = await startApp({ overrides: { clock }, dataDir: app.dataDir });
    expect((await app.client().json("POST", "/api/auth/login", { login: "target", password: PASSWORD })).status).toBe(429);
    clock.advance(15 * 60_000 + 1);
    expect((await app.client().json("POST", "/api/auth/login", { login: "target", password: PASSWORD })).status).toBe(200);
    await app.stop();
  });

  it("limits failures per client address across accounts", async () => {
    const app = await startApp();
    try {
      await signUp(app, "admin");
      for (let i = 0; i < 10; i++) await app.client().json("POST", "/api/auth/login", { login: `ghost${i}`, password: "wrong password" });
      const res = await app.client().json("POST", "/api/auth/login", { login: "admin", password: PASSWORD });
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).not.toBeNull();
    } finally {
      await app.stop();
    }
  });
});

describe("sessions", () => {
  let app: TestApp;
  const clock = manualClock();
  beforeAll(async () => {
    app = await startApp({ overrides: { clock } });
    await signUp(app, "admin");
  });
  afterAll(() => app.stop());

  it("are usable as cookie and as Bearer, listed with device and address, and revocable one by one or all others", async () => {
    const me = await signUp(app, "dave");
    const laptop = app.client();
    await laptop.json("POST", "/api/auth/login", { login: "dave", password: PASSWORD }, { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0" });
    const list = await me.browser.json("GET", "/api/oauth/me/sessions");
    expect(list.status).toBe(200);
    expect(list.data.sessions).toHaveLength(2);
    const other = list.data.sessions.find((s: { current: boolean }) => !s.current);
    expect(other).toMatchObject({ device: "Firefox on Linux", ip: "127.0.0.1" });
    expect((await me.bearer("GET", "/api/oauth/me/sessions")).data.sessions).toHaveLength(2);

    expect((await me.browser.json("DELETE", `/api/oauth/me/sessions/${other.sid}`)).status).toBe(200);
    expect((await laptop.json("GET", "/api/auth/session")).status).toBe(401);
    expect((await me.browser.json("DELETE", `/api/oauth/me/sessions/${other.sid}`)).status).toBe(404);

    const phone = app.client();
    await phone.json("POST", "/api/auth/login", { login: "dave", password: PASSWORD });
    expect((await me.browser.json("DELETE", "/api/oauth/me/sessions")).data).toEqual({ revoked: 1 });
    expect((await phone.json("GET", "/api/auth/session")).status).toBe(401);
    expect((await me.browser.json("GET", "/api/auth/session")).status).toBe(200);
  });

  it("cannot revoke another user's session", async () => {
    const a = await signUp(app, "erin");
    const b = await signUp(app, "frank");
    const sid = (await b.browser.json("GET", "/api/auth/session")).data.session.sid;
    expect((await a.browser.json("DELETE", `/api/oauth/me/sessions/${sid}`)).status).toBe(404);
    expect((await b.browser.json("GET", "/api/auth/session")).status).toBe(200);
  });

  it("slide: used within 14 days they live on; idle for 14 days they end", async () => {
    const u = await signUp(app, "gina");
    clock.advance(10 * 86_400_000);
    expect((await u.bearer("GET", "/api/auth/session")).status).toBe(200);
    clock.advance(10 * 86_400_000); // 20 days after sign-in, 10 after last use
    expect((await u.browser.json("GET", "/api/auth/session")).status).toBe(200);
    clock.advance(15 * 86_400_000);
    expect((await u.browser.json("GET", "/api/auth/session")).status).toBe(401);
  });

  it("logout ends the session and clears the cookie", async () => {
    const u = await signUp(app, "hank");
    const out = await u.browser.json("POST", "/api/auth/logout");
    expect(out).toMatchObject({ status: 200, data: { ok: true } });
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await u.bearer("GET", "/api/auth/session")).status).toBe(401);
  });

  it("answer 401 with a Bearer challenge to a missing, forged or garbage credential", async () => {
    for (const authorization of [undefined, "Bearer nope", "Bearer a.b.c", "Basic abc", "Bearer cairn_pat_fake"]) {
      const res = await app.client().json("GET", "/api/auth/session", undefined, authorization ? { authorization } : {});
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("Bearer");
    }
  });

  it("refuse cookie-authenticated writes without this site's Origin; Bearer writes need none", async () => {
    const u = await signUp(app, "ivan");
    const cookie = [...u.browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const raw = (origin?: string) =>
      fetch(`${app.url}/api/oauth/me`, {
        method: "PATCH",
        headers: { cookie, "content-type": "application/json", ...(origin ? { origin } : {}) },
        body: JSON.stringify({ name: "Changed" }),
      });
    expect((await raw()).status).toBe(403);
    expect((await raw("https://evil.example")).status).toBe(403);
    expect((await u.browser.json("GET", "/api/oauth/me")).data.user.name).toBe("ivan");
    expect((await raw(app.url)).status).toBe(200);
    expect((await u.bearer("PATCH", "/api/oauth/me", { name: "By bearer" })).status).toBe(200);
  });
});
