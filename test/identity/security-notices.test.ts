import { describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { jarFetch } from "../helpers/cookie-jar.ts";
import { manualClock } from "../helpers/clock.ts";
import { PASSWORD, signInWithTotp, signUp, type SignedUp, totpCode } from "../helpers/identity.ts";
import type { Received } from "../helpers/smtp.ts";
import { linkIn, mailTo, queued, mailTestbed } from "./identity-mail.fixtures.ts";
import { makePasskey } from "./software-passkey.ts";

// Issue 44 item 5: the account's address hears of a changed or reset password, a second factor or
// passkey added or removed, a sign-in from a browser not seen before, and the account disabled or
// deleted; each notice says what, when, from which browser, and what to do if it was not them.
const clock = manualClock();
const t = mailTestbed({ clock });

const FIREFOX = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0" };
const SAFARI = {
  "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
};
const notices = (user: SignedUp) => queued(t.app, "security_notice", user.user.email);

/** A notice as received: what happened, when, from where, and the way back in if it was not them. */
function expectNotice(mail: Received, what: string, from: string) {
  expect(mail.text).toContain(what);
  expect(mail.text).toMatch(/When: \w+day, \d+ \w+ \d{4} at \d\d:\d\d UTC\./);
  expect(mail.text).toContain(from);
  expect(mail.text).toContain("If it was not you");
  expect(mail.text).toContain(`${t.app.url}/forgot-password`);
  expect(linkIn(mail, "/account").href).toBe(`${t.app.url}/account`);
  expect(mail.html).toContain(`href="${t.app.url}/account"`);
}

describe("issue 44: security notices", () => {
  it("a changed password, from the browser that changed it; a refused change tells nobody", async () => {
    const ada = await signUp(t.app, "ada");
    const wrong = await ada.browser.json(
      "POST",
      "/api/oauth/me/password",
      { current_password: "not it at all", new_password: "ada's new passphrase" },
      FIREFOX,
    );
    expect(wrong.status).toBe(400);
    expect(await notices(ada)).toEqual([]);
    await ada.browser.json("POST", "/api/oauth/me/password", { current_password: PASSWORD, new_password: "ada's new passphrase" }, FIREFOX);
    expectNotice(
      await mailTo(t.smtp, "ada@example.com", "your password was changed"),
      "The password of your account “ada” was changed.",
      "Browser: Firefox on Linux",
    );
  });

  it("a reset password (Forgot password?), saying the second factors stay", async () => {
    await signUp(t.app, "bob");
    await t.app.client().json("POST", "/api/auth/password/forgot", { login: "bob" });
    const token = linkIn(await mailTo(t.smtp, "bob@example.com", "reset your password"), "/reset-password").searchParams.get("token");
    await t.app.client().json("POST", "/api/auth/password/reset", { token, password: "bob's new passphrase" }, SAFARI);
    const mail = await mailTo(t.smtp, "bob@example.com", "your password was reset");
    expectNotice(mail, "was reset with a recovery link", "Browser: Safari on iOS");
    expect(mail.text).toContain("Its authenticator app and passkeys stay");
  });

  it("an authenticator app added, new backup codes, and the authenticator removed", async () => {
    const cal = await signUp(t.app, "cal");
    const { secret, browser } = await signInWithTotp(t.app, cal, () => clock.now());
    expectNotice(await mailTo(t.smtp, "cal@example.com", "an authenticator app was added"), "An authenticator app was set up", "Browser:");
    clock.advance(60_000);
    await browser.json("POST", "/api/oauth/me/totp/backup-codes", { code: await totpCode(secret, clock.now()) }, FIREFOX);
    expectNotice(await mailTo(t.smtp, "cal@example.com", "new backup codes were made"), "the old ones no longer work", "Browser: Firefox on Linux");
    clock.advance(60_000);
    await browser.json("DELETE", "/api/oauth/me/totp", { code: await totpCode(secret, clock.now()) }, FIREFOX);
    expectNotice(
      await mailTo(t.smtp, "cal@example.com", "your authenticator app was removed"),
      "signing in no longer asks for a code",
      "Browser: Firefox on Linux",
    );
  });

  it("a passkey added and removed, named", async () => {
    const dee = await signUp(t.app, "dee");
    const { challenge_id, options } = (await dee.browser.json("POST", "/api/oauth/me/passkeys/options")).data;
    const added = await dee.browser.json(
      "POST",
      "/api/oauth/me/passkeys",
      { challenge_id, name: "Work <laptop>", response: await makePasskey(options, t.app.url) },
      FIREFOX,
    );
    expect(added.status).toBe(201);
    const mail = await mailTo(t.smtp, "dee@example.com", "a passkey was added");
    expectNotice(mail, "A passkey named “Work <laptop>” was added", "Browser: Firefox on Linux");
    // The name is the person's own text: escaped in the HTML, never markup.
    expect(mail.html).toContain("Work &lt;laptop&gt;");
    await dee.browser.json("DELETE", `/api/oauth/me/passkeys/${encodeURIComponent(added.data.passkey.id)}`, undefined, SAFARI);
    expectNotice(await mailTo(t.smtp, "dee@example.com", "a passkey was removed"), "The passkey named “Work <laptop>” was removed", "Browser: Safari on iOS");
  });

  it("an account disabled by an administrator", async () => {
    const eve = await signUp(t.app, "eve");
    await t.admin.browser.json("PATCH", `/api/oauth/admin/users/${eve.user.id}`, { disabled: true });
    const mail = await mailTo(t.smtp, "eve@example.com", "your account was disabled");
    expect(mail.text).toContain("it cannot sign in, and every device was signed out");
    expect(mail.text).toContain("By: an administrator of this site.");
    expect(mail.text).toContain("If you did not expect this, ask an administrator of this site.");
  });

  it("an account deleted, by an administrator or its holder: mailed to the address the account no longer has", async () => {
    const fox = await signUp(t.app, "fox");
    expect((await t.admin.browser.json("DELETE", `/api/oauth/admin/users/${fox.user.id}`)).status).toBe(200);
    expect((await mailTo(t.smtp, "fox@example.com", "your account was deleted")).text).toContain("By: an administrator of this site.");
    // The message is nobody's: it outlives the account it tells of.
    expect(await notices(fox)).toEqual([expect.objectContaining({ user_id: null })]);

    const gem = await signUp(t.app, "gem");
    expect((await gem.browser.json("DELETE", "/api/oauth/me", { password: PASSWORD }, FIREFOX)).status).toBe(200);
    expect((await mailTo(t.smtp, "gem@example.com", "your account was deleted")).text).toContain("Browser: Firefox on Linux");
  });
});

describe("issue 44: a sign-in from a browser not seen before", () => {
  const signIn = (browser: ReturnType<typeof jarFetch>, login: string, headers: Record<string, string> = FIREFOX, extra: object = {}) =>
    browser.json("POST", "/api/auth/login", { login, password: PASSWORD, ...extra }, headers);
  const deviceNotices = async (user: SignedUp) => (await notices(user)).filter((n) => n.subject.includes("a sign-in from a new browser"));

  it("is told once per browser, never for the browser that registered, by a long-lived random cookie kept only hashed", async () => {
    const hope = await signUp(t.app, "hope");
    expect(await deviceNotices(hope)).toEqual([]);
    const mark = hope.browser.cookies.get("cairn_device") as string;
    expect(mark).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(await t.app.ctx.db.all(sql`SELECT * FROM known_devices`))).not.toContain(mark);

    // The same browser again: known.
    const again = await signIn(hope.browser, "hope");
    expect(again.headers.getSetCookie().find((c) => c.startsWith("cairn_device="))).toBe(
      `cairn_device=${mark}; Path=/; HttpOnly; SameSite=Lax; Max-Age=34560000`,
    );
    expect(await deviceNotices(hope)).toEqual([]);

    // Another browser: told, once, with the browser it was.
    const phone = jarFetch(t.app.url);
    expect((await signIn(phone, "hope", SAFARI)).status).toBe(200);
    expectNotice(
      await mailTo(t.smtp, "hope@example.com", "a sign-in from a new browser"),
      "was signed in from a browser or device it was not signed in from before",
      "Browser: Safari on iOS, from the address 127.0.0.1",
    );
    await signIn(phone, "hope", SAFARI);
    expect(await deviceNotices(hope)).toHaveLength(1);
    // A mangled mark is no mark.
    const mangled = jarFetch(t.app.url);
    mangled.cookies.set("cairn_device", "forged");
    await signIn(mangled, "hope");
    expect(await deviceNotices(hope)).toHaveLength(2);
  });

  it("is per account: a browser one account knows is new to another; the same user agent from a new browser is still new", async () => {
    const ivan = await signUp(t.app, "ivan");
    const jade = await signUp(t.app, "jade");
    await signIn(ivan.browser, "jade");
    expect(await deviceNotices(jade)).toHaveLength(1);
    await signIn(jarFetch(t.app.url), "ivan");
    expect(await deviceNotices(ivan)).toHaveLength(1);
  });

  it("is told after the second factor, for a sign-in in two steps", async () => {
    const kai = await signUp(t.app, "kai");
    const { secret } = await signInWithTotp(t.app, kai, () => clock.now());
    // signInWithTotp signed in from a new browser of its own: one notice so far.
    expect(await deviceNotices(kai)).toHaveLength(1);
    const laptop = jarFetch(t.app.url);
    const first = await signIn(laptop, "kai");
    expect(first.data.mfa_required).toBe(true);
    expect(await deviceNotices(kai)).toHaveLength(1);
    clock.advance(60_000);
    expect(
      (await laptop.json("POST", "/api/auth/login/mfa", { mfa_token: first.data.mfa_token, code: await totpCode(secret, clock.now()) }, FIREFOX)).status,
    ).toBe(200);
    expect(await deviceNotices(kai)).toHaveLength(2);
  });

  it("an account that knows no browser yet (made before browsers were remembered) learns its first one quietly", async () => {
    const lou = await signUp(t.app, "lou");
    await t.app.ctx.db.run(sql`DELETE FROM known_devices WHERE user_id = ${lou.user.id}`);
    await signIn(jarFetch(t.app.url), "lou");
    expect(await deviceNotices(lou)).toEqual([]);
    await signIn(jarFetch(t.app.url), "lou");
    expect(await deviceNotices(lou)).toHaveLength(1);
  });
});
