import { beforeAll, describe, expect, it } from "bun:test";
import { updateSiteConfig } from "../../src/identity/site-config/site-config.ts";
import type { TestApp } from "../helpers/app.ts";
import { signUp } from "../helpers/identity.ts";
import { ACTION, approve, approvedRedirect, challengesWorld, NONCE } from "./two-factor-challenges.fixtures.ts";
import { codeOf, info, newChallenge, SUDO_REVOKE, type twoFactorWorld, verify } from "./two-factor.fixtures.ts";

/* Spec 1 state table 3.4: the sudo window a confirmation can open, per app and per session, and how it ends. */
const { cast, clock, code, anotherApp, signInAgain, openWindow } = challengesWorld();
let app: TestApp;
let world: Awaited<ReturnType<typeof twoFactorWorld>>;
beforeAll(() => ({ app, world } = cast));

describe("spec 1 state table 3.4: the sudo window", () => {
  it("none -> active: a TOTP confirmation with remember_sudo opens it; later challenges of that app confirm with method sudo", async () => {
    const client = await anotherApp("Window app");
    const session = await signInAgain();
    // without the opt-in nothing is remembered
    const plain = await newChallenge(app, client);
    await approve(session.browser, plain, { method: "totp", code: await code() });
    expect((await info(session.browser, (await newChallenge(app, client)).id)).data.sudo_available).toBe(false);

    const { opened } = await openWindow(session.browser, client);
    const windows = await session.browser.json("GET", "/api/oauth/me/sudo");
    expect(windows.status).toBe(200);
    expect(windows.data.windows).toEqual([
      {
        client_id: client.client_id,
        client_name: "Window app",
        session_id: expect.any(String),
        this_device: true,
        user_agent: expect.any(String),
        created_at: opened,
        expires_at: opened + 15 * 60_000,
      },
    ]);
    const ch = await newChallenge(app, client);
    const page = await info(session.browser, ch.id);
    expect(page.data).toMatchObject({ sudo_available: true, sudo_expires_at: Math.floor((opened + 15 * 60_000) / 1000), sudo_ttl_minutes: 15 });
    const res = await approve(session.browser, ch, { method: "sudo" });
    expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
    const result = await verify(app, client, { code: codeOf(res.data.redirect_to), code_verifier: ch.verifier });
    expect(result.data).toEqual({
      user_id: world.user.user.id,
      client_id: client.client_id,
      verified_at: Math.floor(clock.now() / 1000),
      action: ACTION,
      nonce: NONCE,
      method: "sudo",
    });
  });

  it("active: the sudo bypass still needs the ticked confirmation (400, challenge stays open)", async () => {
    const client = await anotherApp("Checkbox app");
    await openWindow(world.browser, client);
    const ch = await newChallenge(app, client);
    const res = await approve(world.browser, ch, { method: "sudo", confirmed: false });
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ error: "invalid_request", error_description: "Tick the box to confirm the action first." });
    const ok = await approve(world.browser, ch, { method: "sudo" });
    expect(ok.data).toEqual({ redirect_to: approvedRedirect(ch, ok.data.redirect_to) });
  });

  it("active: the sudo bypass never meets the captcha, even with the site's gate on; TOTP does", async () => {
    const client = await anotherApp("Gated sudo app");
    await openWindow(world.browser, client);
    await updateSiteConfig(app.ctx, { captcha_provider: "pow", require_captcha_for_2fa: true, pow_difficulty: 8 });
    try {
      const ch = await newChallenge(app, client, { require_captcha: true });
      expect((await info(world.browser, ch.id)).data).toMatchObject({ captcha_required: true, captcha_provider: "pow", sudo_available: true });
      const totp = await approve(world.browser, ch, { method: "totp", code: "123456" });
      expect(totp.status).toBe(400);
      expect(totp.data).toEqual({ error: "invalid_request", error_description: "The proof of work is missing or malformed." });
      const res = await approve(world.browser, ch, { method: "sudo" });
      expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
    } finally {
      await updateSiteConfig(app.ctx, { captcha_provider: "none", require_captcha_for_2fa: false });
    }
  });

  it("sudo_mode_ttl_minutes 0: remember_sudo opens nothing, and an open window no longer counts", async () => {
    const client = await anotherApp("No sudo app");
    const earlier = await anotherApp("Earlier window app");
    await openWindow(world.browser, earlier);
    await updateSiteConfig(app.ctx, { sudo_mode_ttl_minutes: 0 });
    try {
      const ch = await newChallenge(app, client);
      const res = await approve(world.browser, ch, { method: "totp", code: await code(), remember_sudo: true });
      expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
      const ids = (await world.browser.json("GET", "/api/oauth/me/sudo")).data.windows.map((w: { client_id: string }) => w.client_id);
      expect(ids).not.toContain(client.client_id);
      for (const c of [client, earlier]) {
        const next = await newChallenge(app, c);
        expect((await info(world.browser, next.id)).data).toMatchObject({ sudo_available: false, sudo_expires_at: null, sudo_ttl_minutes: 0 });
        const sudo = await approve(world.browser, next, { method: "sudo" });
        expect(sudo.status).toBe(400);
        expect(sudo.data).toEqual({
          error: "invalid_request",
          error_description: "No confirmation is remembered for this app on this device any more. Confirm with a code or a passkey.",
        });
        expect((await info(world.browser, next.id)).status).toBe(200);
      }
    } finally {
      await updateSiteConfig(app.ctx, { sudo_mode_ttl_minutes: 15 });
    }
  });

  it("an admin who shortens the window shortens the open ones; turning sudo off ends them for good", async () => {
    const client = await anotherApp("Shortened app");
    await openWindow(world.browser, client);
    clock.advance(3 * 60_000);
    await updateSiteConfig(app.ctx, { sudo_mode_ttl_minutes: 2 });
    try {
      let ch = await newChallenge(app, client);
      expect((await info(world.browser, ch.id)).data.sudo_available).toBe(false);
      expect((await approve(world.browser, ch, { method: "sudo" })).status).toBe(400);
      await updateSiteConfig(app.ctx, { sudo_mode_ttl_minutes: 15 });
      ch = await newChallenge(app, client);
      expect((await info(world.browser, ch.id)).data.sudo_available).toBe(true);
      await updateSiteConfig(app.ctx, { sudo_mode_ttl_minutes: 0 });
      clock.advance(1);
      await updateSiteConfig(app.ctx, { sudo_mode_ttl_minutes: 15 });
      ch = await newChallenge(app, client);
      expect((await info(world.browser, ch.id)).data.sudo_available).toBe(false);
      expect(
        (await world.browser.json("GET", "/api/oauth/me/sudo")).data.windows.filter((w: { client_id: string }) => w.client_id === client.client_id),
      ).toEqual([]);
    } finally {
      await updateSiteConfig(app.ctx, { sudo_mode_ttl_minutes: 15 });
    }
  });

  it("active -> none when the TTL elapses", async () => {
    const client = await anotherApp("Short window app");
    const { opened } = await openWindow(world.browser, client);
    clock.set(opened + 15 * 60_000 - 1);
    const before = await newChallenge(app, client);
    expect((await info(world.browser, before.id)).data.sudo_available).toBe(true);
    clock.set(opened + 15 * 60_000);
    const after = await newChallenge(app, client);
    expect((await info(world.browser, after.id)).data.sudo_available).toBe(false);
    const res = await approve(world.browser, after, { method: "sudo" });
    expect(res.status).toBe(400);
    expect(res.data.error).toBe("invalid_request");
    // the challenge stayed open: it can still be confirmed with a factor
    const totp = await approve(world.browser, after, { method: "totp", code: await code() });
    expect(totp.data).toEqual({ redirect_to: approvedRedirect(after, totp.data.redirect_to) });
  });

  it("active -> none on POST /api/oauth/2fa/sudo/revoke with the session JWT as Bearer", async () => {
    const client = await anotherApp("Revoked window app");
    const session = await signInAgain();
    await openWindow(session.browser, client);
    expect((await info(session.browser, (await newChallenge(app, client)).id)).data.sudo_available).toBe(true);

    expect((await app.client().json("POST", SUDO_REVOKE, { client_id: client.client_id })).status).toBe(401);
    const empty = await session.bearer("POST", SUDO_REVOKE, { client_id: "" });
    expect(empty.status).toBe(400);
    expect(empty.data.error).toBe("invalid_request");
    const res = await session.bearer("POST", SUDO_REVOKE, { client_id: client.client_id });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ ok: true, ended: true });
    expect((await session.bearer("POST", SUDO_REVOKE, { client_id: client.client_id })).data).toEqual({ ok: true, ended: false });

    const ch = await newChallenge(app, client);
    expect((await info(session.browser, ch.id)).data.sudo_available).toBe(false);
    const sudo = await approve(session.browser, ch, { method: "sudo" });
    expect(sudo.status).toBe(400);
    expect(sudo.data.error).toBe("invalid_request");
    expect((await session.browser.json("GET", "/api/oauth/me/sudo")).data.windows).toEqual([]);
  });

  it("revoking names only the caller's own windows: another user's session_id ends nothing", async () => {
    const client = await anotherApp("Foreign revoke app");
    const session = await signInAgain();
    await openWindow(session.browser, client);
    const sid = (await session.browser.json("GET", "/api/auth/session")).data.session.sid as string;
    const stranger = await signUp(app, "stranger-sudo");
    const res = await stranger.bearer("POST", SUDO_REVOKE, { client_id: client.client_id, session_id: sid });
    expect(res.data).toEqual({ ok: true, ended: false });
    expect((await info(session.browser, (await newChallenge(app, client)).id)).data.sudo_available).toBe(true);
  });

  it("active -> unreachable when the user logs out: signed in again (a new session), sudo is refused", async () => {
    const client = await anotherApp("Logout app");
    const session = await signInAgain();
    await openWindow(session.browser, client);
    const out = await session.browser.json("POST", "/api/auth/logout");
    expect(out.status).toBe(200);
    expect((await info(session.browser, (await newChallenge(app, client)).id)).status).toBe(401);

    const again = await signInAgain();
    const ch = await newChallenge(app, client);
    expect((await info(again.browser, ch.id)).data).toMatchObject({ sudo_available: false, sudo_expires_at: null });
    const sudo = await approve(again.browser, ch, { method: "sudo" });
    expect(sudo.status).toBe(400);
    expect(sudo.data.error).toBe("invalid_request");
    const listed = (await again.browser.json("GET", "/api/oauth/me/sudo")).data.windows.map((w: { client_id: string }) => w.client_id);
    expect(listed).not.toContain(client.client_id);
  });

  it("windows are per app: another app of the same user on the same session gets no sudo", async () => {
    const first = await anotherApp("First app");
    const second = await anotherApp("Second app");
    await openWindow(world.browser, first);
    const ch = await newChallenge(app, second);
    expect((await info(world.browser, ch.id)).data.sudo_available).toBe(false);
    const sudo = await approve(world.browser, ch, { method: "sudo" });
    expect(sudo.status).toBe(400);
    expect(sudo.data.error).toBe("invalid_request");
    expect((await info(world.browser, (await newChallenge(app, first)).id)).data.sudo_available).toBe(true);
  });

  it("windows are per session: the same user on another device gets no sudo", async () => {
    const client = await anotherApp("Device app");
    await openWindow(world.browser, client);
    const elsewhere = await signInAgain();
    const ch = await newChallenge(app, client);
    expect((await info(elsewhere.browser, ch.id)).data.sudo_available).toBe(false);
    expect((await approve(elsewhere.browser, ch, { method: "sudo" })).status).toBe(400);
    const mine = (await elsewhere.browser.json("GET", "/api/oauth/me/sudo")).data.windows.find((w: { client_id: string }) => w.client_id === client.client_id);
    expect(mine.this_device).toBe(false);
  });

  it("a backup-code confirmation with remember_sudo opens no window", async () => {
    const client = await anotherApp("Backup window app");
    const ch = await newChallenge(app, client);
    const res = await approve(world.browser, ch, { method: "backup", code: world.backupCodes[1], remember_sudo: true });
    expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
    const next = await newChallenge(app, client);
    expect((await info(world.browser, next.id)).data.sudo_available).toBe(false);
    expect((await approve(world.browser, next, { method: "sudo" })).status).toBe(400);
    const listed = (await world.browser.json("GET", "/api/oauth/me/sudo")).data.windows.map((w: { client_id: string }) => w.client_id);
    expect(listed).not.toContain(client.client_id);
  });

  it("a sudo confirmation with remember_sudo does not extend the window", async () => {
    const client = await anotherApp("No extension app");
    const { opened } = await openWindow(world.browser, client);
    clock.advance(10 * 60_000);
    const ch = await newChallenge(app, client);
    expect((await approve(world.browser, ch, { method: "sudo", remember_sudo: true })).status).toBe(200);
    clock.set(opened + 15 * 60_000);
    expect((await info(world.browser, (await newChallenge(app, client)).id)).data.sudo_available).toBe(false);
  });
});
