import { describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { manualClock } from "../helpers/clock.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { mailTo, queued, mailTestbed, tokenIn } from "./identity-mail.fixtures.ts";

// Issue 44 item 2 (ARCHITECTURE section 4b): registering or changing an email mails a one-use
// link (`/verify-email?token=`); `POST /api/auth/email/confirm {token}` makes email_verified true.
const clock = manualClock();
const t = mailTestbed({ clock });

const SUBJECT = "confirm your email address";
const NOT_VALID = {
  error: "invalid_verification_link",
  error_description:
    "This verification link cannot be used: it was already used, it expired, a newer link replaced it, or the account's email changed since. Ask for a new one on your account page.",
};
const confirm = (token: unknown) => t.app.client().json("POST", "/api/auth/email/confirm", { token });
const verifiedOf = async (user: SignedUp) => (await user.browser.json("GET", "/api/auth/session")).data.user.email_verified;

describe("issue 44: a verified address", () => {
  it("the first account (the admin's, typed in at setup) starts verified, and is sent no link", async () => {
    expect(await verifiedOf(t.admin)).toBe(true);
    expect(await queued(t.app, "verify_email", "admin@example.com")).toEqual([]);
  });

  it("registering mails a one-use link to /verify-email; using it makes email_verified true, and only once", async () => {
    const bea = await signUp(t.app, "bea");
    expect(await verifiedOf(bea)).toBe(false);
    const mail = await mailTo(t.smtp, "bea@example.com", SUBJECT);
    expect(mail.text).toContain("The link works once");
    const token = tokenIn(mail, "/verify-email");
    expect(JSON.stringify(await t.app.ctx.db.all(sql`SELECT * FROM email_verifications`))).not.toContain(token);

    const used = await confirm(token);
    expect(used).toMatchObject({ status: 200, data: { ok: true } });
    expect(used.headers.get("cache-control")).toBe("no-store");
    expect(await verifiedOf(bea)).toBe(true);
    expect((await bea.browser.json("GET", "/api/oauth/me")).data.user.email_verified).toBe(true);
    expect(await confirm(token)).toMatchObject({ status: 400, data: NOT_VALID });
  });

  it("used 50 times at once, succeeds exactly once", async () => {
    await signUp(t.app, "cyd");
    const token = tokenIn(await mailTo(t.smtp, "cyd@example.com", SUBJECT), "/verify-email");
    const answers = await Promise.all(Array.from({ length: 50 }, () => confirm(token)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers) if (a.status !== 200) expect(a).toMatchObject({ status: 400, data: NOT_VALID });
  });

  it("a changed email is unverified again: the new address gets a link, the old link and the old address's link stop working, the old address is told", async () => {
    const dot = await signUp(t.app, "dot");
    const first = tokenIn(await mailTo(t.smtp, "dot@example.com", SUBJECT), "/verify-email");
    expect((await confirm(first)).status).toBe(200);
    expect(await verifiedOf(dot)).toBe(true);

    const changed = await dot.browser.json(
      "PATCH",
      "/api/oauth/me",
      { email: "Dot.New@Example.com" },
      { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0" },
    );
    expect(changed.data.user).toMatchObject({ email: "dot.new@example.com", email_verified: false });
    const notice = await mailTo(t.smtp, "dot@example.com", "your email address was changed");
    expect(notice.text).toContain("changed from dot@example.com to dot.new@example.com");
    expect(notice.text).toContain("Browser: Firefox on Linux");

    const newer = tokenIn(await mailTo(t.smtp, "dot.new@example.com", SUBJECT), "/verify-email");
    // A link for an address the account no longer has proves nothing, even while unused.
    await dot.browser.json("PATCH", "/api/oauth/me", { email: "dot.third@example.com" });
    expect(await confirm(newer)).toMatchObject({ status: 400, data: NOT_VALID });
    expect(await verifiedOf(dot)).toBe(false);
    const third = tokenIn(await mailTo(t.smtp, "dot.third@example.com", SUBJECT), "/verify-email");
    expect((await confirm(third)).status).toBe(200);
    expect(await verifiedOf(dot)).toBe(true);
  });

  it("Resend mails a new link that replaces the older one; a link works for 24 hours", async () => {
    const eli = await signUp(t.app, "eli");
    const older = tokenIn(await mailTo(t.smtp, "eli@example.com", SUBJECT), "/verify-email");
    const resent = await eli.browser.json("POST", "/api/oauth/me/email/verification");
    expect(resent).toMatchObject({ status: 202, data: { ok: true } });
    const newer = tokenIn(await mailTo(t.smtp, "eli@example.com", SUBJECT, 1), "/verify-email");
    expect(newer).not.toBe(older);
    expect(await confirm(older)).toMatchObject({ status: 400, data: NOT_VALID });
    clock.advance(24 * 3600_000 + 1);
    expect(await confirm(newer)).toMatchObject({ status: 400, data: NOT_VALID });
    expect(await verifiedOf(eli)).toBe(false);
  });

  it("Resend is limited per account, refused once verified, and only for a session", async () => {
    const fay = await signUp(t.app, "fay");
    const resend = () => fay.browser.json("POST", "/api/oauth/me/email/verification");
    // Registration sent one; three more an hour, then 429 with Retry-After.
    for (let i = 0; i < 3; i++) expect((await resend()).status).toBe(202);
    const limited = await resend();
    expect(limited).toMatchObject({ status: 429, data: { error: "too_many_attempts" } });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await queued(t.app, "verify_email", "fay@example.com")).toHaveLength(4);

    const pat = (await fay.browser.json("POST", "/api/oauth/me/tokens", { name: "script", scopes: ["profile"] })).data.secret;
    expect((await t.app.client().json("POST", "/api/oauth/me/email/verification", undefined, { authorization: `Bearer ${pat}` })).status).toBe(403);
    expect((await t.app.client().json("POST", "/api/oauth/me/email/verification")).status).toBe(401);
    expect((await t.admin.browser.json("POST", "/api/oauth/me/email/verification")).data).toMatchObject({ error: "email_already_verified" });
  });

  it("an administrator marks an address verified (Admin → Users), audited; nobody else may", async () => {
    const gus = await signUp(t.app, "gus");
    const path = `/api/oauth/admin/users/${gus.user.id}`;
    expect((await gus.browser.json("PATCH", path, { email_verified: true })).status).toBe(403);
    expect(await verifiedOf(gus)).toBe(false);
    const marked = await t.admin.browser.json("PATCH", path, { email_verified: true });
    expect(marked).toMatchObject({ status: 200, data: { user: { username: "gus", email_verified: true } } });
    expect(await verifiedOf(gus)).toBe(true);
    const listed = (await t.admin.browser.json("GET", "/api/oauth/admin/users?q=gus")).data.users[0];
    expect(listed.email_verified).toBe(true);
    const entries = (await t.admin.browser.json("GET", "/api/oauth/admin/audit?limit=200")).data.entries as {
      action: string;
      target_user_id: string;
      details: object;
    }[];
    expect(entries.find((e) => e.target_user_id === gus.user.id && e.action === "admin.user_updated")).toMatchObject({ details: { email_verified: true } });
  });

  it("takes only one plain address mail can reach, at registration and when it changes", async () => {
    const ivo = await signUp(t.app, "ivo");
    for (const email of ["a<b@example.com", "two@example.com, three@example.com", "ivo@exa mple.com", "ivo@example.com\r\nBcc: x@example.com"]) {
      const registering = await t.app.client().json("POST", "/api/auth/register", { username: "newcomer", email, password: "a long enough passphrase" });
      expect(registering).toMatchObject({ status: 400, data: { error: "invalid_request", error_description: "Enter a valid email address." } });
      expect((await ivo.browser.json("PATCH", "/api/oauth/me", { email })).status).toBe(400);
    }
    expect(await queued(t.app, "verify_email", "ivo@example.com")).toHaveLength(1);
  });

  it("refuses an unknown or malformed token, or a form from another site, changing nothing", async () => {
    const hal = await signUp(t.app, "hal");
    const token = tokenIn(await mailTo(t.smtp, "hal@example.com", SUBJECT), "/verify-email");
    for (const bad of ["not-a-token", "", " "]) expect(await confirm(bad)).toMatchObject({ status: 400, data: NOT_VALID });
    for (const body of [{ token: 42 }, {}, { token: "x".repeat(201) }])
      expect(await t.app.client().json("POST", "/api/auth/email/confirm", body)).toMatchObject({ status: 400, data: { error: "invalid_request" } });
    const foreign = await t.app.client().json("POST", "/api/auth/email/confirm", { token }, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(await verifiedOf(hal)).toBe(false);
    expect((await confirm(token)).status).toBe(200);
  });
});
