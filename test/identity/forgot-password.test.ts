import { beforeEach, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { type ForgotStep, requestPasswordReset } from "../../src/identity/password-resets/forgot-password.service.ts";
import { updateUserAsAdmin } from "../../src/identity/admin/users-admin.service.ts";
import { manualClock } from "../helpers/clock.ts";
import { PASSWORD, signInWithTotp, signUp, totpCode } from "../helpers/identity.ts";
import { linkIn, mailTo, queued, mailTestbed, tokenIn } from "./identity-mail.fixtures.ts";

// Issue 44 item 3 (ARCHITECTURE section 4b): "Forgot password?" mails a one-use link for 15
// minutes; the answer is the same whether or not the account exists; the reset ends every session
// and token as `cairn admin reset-password` does, but an account's second factor stays.
const clock = manualClock();
const t = mailTestbed({ clock });
// Each test counts its own requests: the limits are the subject of only some of them.
beforeEach(async () => {
  await t.app.ctx.db.run(sql`DELETE FROM rate_limit_hits`);
});

const SUBJECT = "reset your password";
const forgot = (login: unknown, headers: Record<string, string> = {}) => t.app.client().json("POST", "/api/auth/password/forgot", { login }, headers);
const reset = (token: string, password: string) => t.app.client().json("POST", "/api/auth/password/reset", { token, password });
const signIn = (login: string, password: string, extra: object = {}) => t.app.client().json("POST", "/api/auth/login", { login, password, ...extra });
const answerOf = (res: Awaited<ReturnType<typeof forgot>>) => ({ status: res.status, body: res.data, cacheControl: res.headers.get("cache-control") });

describe("issue 44: Forgot password?", () => {
  it("mails a one-use link for 15 minutes; the reset ends every session, app token and personal token, but the second factor stays and is asked for", async () => {
    const dana = await signUp(t.app, "dana");
    const totp = await signInWithTotp(t.app, dana, () => clock.now());
    const pat = (await totp.browser.json("POST", "/api/oauth/me/tokens", { name: "script", scopes: ["profile"] })).data.secret as string;

    expect(answerOf(await forgot("Dana"))).toEqual({ status: 202, body: { ok: true }, cacheControl: "no-store" });
    const mail = await mailTo(t.smtp, "dana@example.com", SUBJECT);
    const link = linkIn(mail, "/reset-password");
    expect(link.searchParams.get("forgot")).toBe("1");
    expect(mail.text).toContain("15 minutes");
    const token = link.searchParams.get("token") as string;
    expect(JSON.stringify(await t.app.ctx.db.all(sql`SELECT * FROM password_resets`))).not.toContain(token);

    expect(await reset(token, "dana's new passphrase")).toMatchObject({ status: 200, data: { ok: true } });
    expect((await signIn("dana", PASSWORD)).status).toBe(401);
    for (const browser of [dana.browser, totp.browser]) expect((await browser.json("GET", "/api/auth/session")).status).toBe(401);
    expect((await t.app.client().json("GET", "/api/oauth/me", undefined, { authorization: `Bearer ${pat}` })).status).toBe(401);
    // The authenticator stays: the new password alone is not enough.
    const step = await signIn("dana", "dana's new passphrase");
    expect(step.data).toMatchObject({ mfa_required: true, methods: ["totp", "backup_code"] });
    clock.advance(60_000); // a time step whose code was not used yet
    const full = await signIn("dana", "dana's new passphrase", { code: await totpCode(totp.secret, clock.now()) });
    expect(full.status).toBe(200);
    // The mailbox is proven by the link it received.
    expect(full.data.user.email_verified).toBe(true);
    expect((await reset(token, "a third passphrase")).data.error).toBe("invalid_reset_link");
  });

  it("a link expires after 15 minutes, and a newer one replaces it", async () => {
    await signUp(t.app, "emil");
    await forgot("emil");
    const older = tokenIn(await mailTo(t.smtp, "emil@example.com", SUBJECT), "/reset-password");
    await forgot("emil@example.com");
    const newer = tokenIn(await mailTo(t.smtp, "emil@example.com", SUBJECT, 1), "/reset-password");
    expect((await reset(older, "a good long passphrase")).data.error).toBe("invalid_reset_link");
    clock.advance(15 * 60_000 + 1);
    expect((await reset(newer, "a good long passphrase")).data.error).toBe("invalid_reset_link");
    expect((await signIn("emil", PASSWORD)).status).toBe(200);
  });

  it("used 50 times at once, succeeds exactly once", async () => {
    await signUp(t.app, "finn");
    await forgot("finn");
    const token = tokenIn(await mailTo(t.smtp, "finn@example.com", SUBJECT), "/reset-password");
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => reset(token, `concurrent passphrase ${i}`)));
    const won = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
    expect(won).toHaveLength(1);
    for (const a of answers) if (a.status !== 200) expect(a.data.error).toBe("invalid_reset_link");
    expect((await signIn("finn", `concurrent passphrase ${won[0]}`)).status).toBe(200);
  }, 120_000);

  it("answers alike for an account, an unknown login, a disabled account and one asked for too often; only the first is mailed", async () => {
    const gil = await signUp(t.app, "gil");
    const hana = await signUp(t.app, "hana");
    await updateUserAsAdmin(t.app.ctx, t.admin.user.id, hana.user.id, { disabled: true });
    const ivy = await signUp(t.app, "ivy");
    for (let i = 0; i < 3; i++) await forgot("ivy");
    const before = (await queued(t.app, "password_reset")).length;

    const answers = [await forgot("gil"), await forgot("nobody-here"), await forgot("nobody@example.com"), await forgot("hana"), await forgot("ivy")];
    const first = answerOf(answers[0] as (typeof answers)[0]);
    for (const a of answers) expect(answerOf(a)).toEqual(first);
    // One more message, gil's (new, so the first of theirs): rows queued in one millisecond have no order to slice by.
    expect(await queued(t.app, "password_reset")).toHaveLength(before + 1);
    expect(await queued(t.app, "password_reset", gil.user.email)).toEqual([
      { to: gil.user.email, subject: expect.stringContaining(SUBJECT), user_id: gil.user.id },
    ]);
    expect(await queued(t.app, "password_reset", ivy.user.email)).toHaveLength(3);
  });

  it("runs the same steps in the same order for every login, and enqueues or skips at the same point", async () => {
    const joan = await signUp(t.app, "joan");
    const kit = await signUp(t.app, "kit");
    await updateUserAsAdmin(t.app.ctx, t.admin.user.id, kit.user.id, { disabled: true });
    const run = async (login: string) => {
      const steps: ForgotStep[] = [];
      const result = await requestPasswordReset(t.app.ctx, login, { ip: "203.0.113.9" }, (step) => steps.push(step));
      return { steps, result };
    };
    const sent = await run("joan");
    expect(sent.result).toBe("sent");
    expect(sent.steps).toEqual(["look_up", "make_token", "compose", "count", "enqueue_or_skip"]);
    for (let i = 0; i < 2; i++) await run(joan.user.email);
    const others = [await run("no-such-user"), await run("kit"), await run("joan")];
    expect(others.map((o) => o.result)).toEqual(["no_account", "disabled", "limited"]);
    for (const other of others) expect(other.steps).toEqual(sent.steps);
  });

  it("is limited per account (its username and email share the count) and per client address", async () => {
    const lea = await signUp(t.app, "lea");
    for (const login of ["lea", "LEA@example.com", "lea", "lea@example.com"]) await forgot(login);
    expect(await queued(t.app, "password_reset", lea.user.email)).toHaveLength(3);

    await t.app.ctx.db.run(sql`DELETE FROM rate_limit_hits`);
    const moe = await signUp(t.app, "moe");
    for (let i = 0; i < 10; i++) await forgot(`stranger-${i}`);
    expect(answerOf(await forgot("moe"))).toEqual({ status: 202, body: { ok: true }, cacheControl: "no-store" });
    expect(await queued(t.app, "password_reset", moe.user.email)).toEqual([]);
  });

  it("refuses a missing or malformed login and a form from another site, mailing nothing", async () => {
    await signUp(t.app, "ned");
    const before = (await queued(t.app, "password_reset")).length;
    for (const body of [{}, { login: "" }, { login: 42 }, { login: "x".repeat(321) }])
      expect(await t.app.client().json("POST", "/api/auth/password/forgot", body)).toMatchObject({ status: 400, data: { error: "invalid_request" } });
    expect((await forgot("ned", { origin: "https://evil.example" })).status).toBe(403);
    expect(await queued(t.app, "password_reset")).toHaveLength(before);
  });

  it("asking by email never ends an administrator's link, which ends the emailed ones", async () => {
    const ola = await signUp(t.app, "ola");
    const adminLink = (await t.admin.browser.json("POST", `/api/oauth/admin/users/${ola.user.id}/reset-link`)).data.url as string;
    await forgot("ola");
    const emailed = tokenIn(await mailTo(t.smtp, "ola@example.com", SUBJECT), "/reset-password");
    await t.admin.browser.json("POST", `/api/oauth/admin/users/${ola.user.id}/reset-link`);
    expect((await reset(emailed, "ola's new passphrase")).data.error).toBe("invalid_reset_link");
    expect((await reset(new URL(adminLink).searchParams.get("token") as string, "ola's new passphrase")).data.error).toBe("invalid_reset_link");
  });
});
