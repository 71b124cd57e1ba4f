import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { PASSWORD, signUp, type SignedUp } from "../helpers/identity.ts";

// Issue 42 item 1 (ARCHITECTURE section 4b): an administrator makes a one-use password reset link,
// so nobody needs the server's shell to let a locked-out person back in.
const clock = manualClock();
let app: TestApp;
let admin: SignedUp;

beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  admin = await signUp(app, "admin");
});
afterAll(() => app.stop());

const DAY_MS = 24 * 3600_000;
const NOT_VALID = {
  error: "invalid_reset_link",
  error_description:
    "This password reset link cannot be used: it was already used, it expired, or a newer link replaced it. Ask for a new one (“Forgot password?” on the sign-in page, or an administrator).",
};

const makeLink = (userId: string, by: SignedUp = admin) => by.browser.json("POST", `/api/oauth/admin/users/${userId}/reset-link`);
const tokenOf = (url: string) => new URL(url).searchParams.get("token") as string;
async function linkFor(userId: string): Promise<string> {
  const made = await makeLink(userId);
  if (made.status !== 201) throw new Error(`reset link for ${userId}: ${made.status} ${JSON.stringify(made.data)}`);
  return tokenOf(made.data.url);
}
const reset = (token: unknown, password: unknown) => app.client().json("POST", "/api/auth/password/reset", { token, password });
const signIn = (login: string, password: string) => app.client().json("POST", "/api/auth/login", { login, password });
const resetRows = () => app.ctx.db.all<Record<string, unknown>>(sql`SELECT * FROM password_resets`);

describe("issue 42: an administrator's reset link", () => {
  it("is a one-use link to /reset-password that works for a day, stored only as a hash", async () => {
    const carl = await signUp(app, "carl");
    const made = await makeLink(carl.user.id);
    expect(made.status).toBe(201);
    expect(made.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(made.data).sort()).toEqual(["expires_at", "url"]);
    expect(made.data.url).toStartWith(`${app.url}/reset-password?token=`);
    expect(made.data.expires_at).toBe(clock.now() + DAY_MS);
    const token = tokenOf(made.data.url);
    expect(token.length).toBeGreaterThanOrEqual(43);
    const rows = (await resetRows()).filter((r) => r.user_id === carl.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ purpose: "admin_link", created_by: admin.user.id, used_at: null });
    expect(JSON.stringify(await resetRows())).not.toContain(token);
  });

  it("sets the new password: the old one fails, every session and token ends, and a second use is refused", async () => {
    const dana = await signUp(app, "dana");
    const pat = (await dana.browser.json("POST", "/api/oauth/me/tokens", { name: "script", scopes: ["profile"] })).data.secret as string;
    const withPat = () => app.client().json("GET", "/api/oauth/me", undefined, { authorization: `Bearer ${pat}` });
    expect((await withPat()).status).toBe(200);
    const token = await linkFor(dana.user.id);

    const used = await reset(token, "a brand new passphrase");
    expect(used).toMatchObject({ status: 200, data: { ok: true } });
    expect(used.headers.get("set-cookie")).toBeNull(); // signed out: the person signs in with the new password
    expect((await signIn("dana", PASSWORD)).status).toBe(401);
    expect((await signIn("dana", "a brand new passphrase")).status).toBe(200);
    expect((await dana.browser.json("GET", "/api/auth/session")).status).toBe(401);
    expect((await dana.bearer("GET", "/api/auth/session")).status).toBe(401);
    expect((await withPat()).status).toBe(401);

    const again = await reset(token, "yet another passphrase");
    expect(again).toMatchObject({ status: 400, data: NOT_VALID });
    expect((await signIn("dana", "yet another passphrase")).status).toBe(401);
  });

  it("used 50 times at once, succeeds exactly once", async () => {
    await signUp(app, "ezra");
    const user = (await admin.browser.json("GET", "/api/oauth/admin/users?q=ezra")).data.users[0];
    const token = await linkFor(user.id);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => reset(token, `concurrent passphrase ${i}`)));
    const won = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
    expect(won).toHaveLength(1);
    for (const a of answers) if (a.status !== 200) expect(a).toMatchObject({ status: 400, data: NOT_VALID });
    expect((await signIn("ezra", `concurrent passphrase ${won[0]}`)).status).toBe(200);
    // Each request hashes its password (argon2) before racing for the link: a busy machine takes a while.
  }, 120_000);

  it("is made only by an administrator, in a session of their own: nobody else, and no app's token", async () => {
    const fay = await signUp(app, "fay");
    const before = (await resetRows()).length;
    const path = `/api/oauth/admin/users/${fay.user.id}/reset-link`;
    expect((await app.client().json("POST", path)).status).toBe(401);
    expect((await fay.browser.json("POST", path)).status).toBe(403);
    expect((await makeLink(admin.user.id, fay)).status).toBe(403);
    const pat = await admin.browser.json("POST", "/api/oauth/me/tokens", { name: "admin script", scopes: ["profile"] });
    const byToken = await app.client().json("POST", path, undefined, { authorization: `Bearer ${pat.data.secret}` });
    expect(byToken).toMatchObject({ status: 403, data: { error: "forbidden", error_description: "This needs a signed-in session, not a token." } });
    expect((await admin.browser.json("POST", path, undefined, { origin: "https://evil.example" })).status).toBe(403);
    expect(await resetRows()).toHaveLength(before);
    expect((await admin.browser.json("POST", "/api/oauth/admin/users/no-such-user/reset-link")).status).toBe(404);
    expect(await resetRows()).toHaveLength(before);
  });

  it("refuses an unknown, malformed, expired or replaced link, changing nothing", async () => {
    const gil = await signUp(app, "gil");
    for (const token of ["not-a-token", "", " "]) expect(await reset(token, "a good long passphrase")).toMatchObject({ status: 400, data: NOT_VALID });
    for (const body of [{ token: 42, password: "a good long passphrase" }, { token: "x" }, {}]) {
      const res = await app.client().json("POST", "/api/auth/password/reset", body);
      expect(res).toMatchObject({ status: 400, data: { error: "invalid_request" } });
    }

    const older = await linkFor(gil.user.id);
    const newer = await linkFor(gil.user.id);
    expect(await reset(older, "a good long passphrase")).toMatchObject({ status: 400, data: NOT_VALID });
    clock.advance(DAY_MS + 1);
    expect(await reset(newer, "a good long passphrase")).toMatchObject({ status: 400, data: NOT_VALID });
    expect((await signIn("gil", PASSWORD)).status).toBe(200);
    expect((await gil.browser.json("GET", "/api/auth/session")).status).toBe(200);
  });

  it("refuses a password registration would refuse, with registration's words, and the link still works after", async () => {
    const hal = await signUp(app, "hal");
    const token = await linkFor(hal.user.id);
    for (const password of ["short", "          ", "hal@example.com"]) {
      const registering = await app.client().json("POST", "/api/auth/register", { username: "newcomer", email: "newcomer@example.com", password });
      const resetting = await reset(token, password);
      expect(resetting.status).toBe(400);
      if (password !== "hal@example.com") expect(resetting.data).toEqual(registering.data);
      else expect(resetting.data).toEqual({ error: "invalid_request", error_description: "The password must differ from your username and email." });
    }
    expect((await signIn("hal", PASSWORD)).status).toBe(200);
    expect((await reset(token, "a good long passphrase")).status).toBe(200);
  });

  it("records who made a link and its use in the audit log, never the token", async () => {
    const ida = await signUp(app, "ida");
    const token = await linkFor(ida.user.id);
    await reset(token, "ida's new passphrase");
    const entries = (await admin.browser.json("GET", "/api/oauth/admin/audit?limit=200")).data.entries as {
      action: string;
      actor_user_id: string | null;
      target_user_id: string | null;
      details: Record<string, unknown>;
    }[];
    const mine = entries.filter((e) => e.target_user_id === ida.user.id);
    expect(mine.find((e) => e.action === "admin.reset_link_created")).toMatchObject({ actor_user_id: admin.user.id });
    expect(mine.find((e) => e.action === "user.password_reset")).toMatchObject({
      actor_user_id: ida.user.id,
      details: { purpose: "admin_link", created_by: admin.user.id },
    });
    expect(JSON.stringify(entries)).not.toContain(token);
  });
});
