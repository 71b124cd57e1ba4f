import { beforeAll, describe, expect, it } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { pkce, postForm, REDIRECT, type RegisteredApp } from "./oauth.fixtures.ts";
import { ACTION, approve, approvedRedirect, challengesWorld, deniedRedirect, GONE, NONCE, OPAQUE } from "./two-factor-challenges.fixtures.ts";
import { askChallenge, codeOf, confirm, INFO, info, newChallenge, type twoFactorWorld, VERIFY, verify } from "./two-factor.fixtures.ts";

/* Spec 1 state table 3.3, every row: a challenge answered, rejected, failed or expired, and the code it gives redeemed once. */
const { cast, clock, code, anotherApp, openWindow, wrongCode } = challengesWorld();
let app: TestApp;
let world: Awaited<ReturnType<typeof twoFactorWorld>>;
let rp: RegisteredApp;
beforeAll(() => ({ app, world, rp } = cast));

describe("spec 1 state table 3.3: every row", () => {
  it("created, the user confirms with TOTP: redirect to the pinned redirect_uri with code and state", async () => {
    const ch = await newChallenge(app, rp);
    const res = await approve(world.browser, ch, { method: "totp", code: await code() });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
    expect(codeOf(res.data.redirect_to)).toMatch(OPAQUE);
    // answered: the page and a second answer find nothing
    expect((await info(world.browser, ch.id)).status).toBe(404);
    expect((await approve(world.browser, ch, { method: "totp", code: await code() })).status).toBe(404);
  });

  it("created, the user confirms with a backup code: code and state, method backup; the backup code works once", async () => {
    const ch = await newChallenge(app, rp);
    const [backup] = world.backupCodes as [string];
    const res = await approve(world.browser, ch, { method: "backup", code: backup });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
    const verifiedAt = Math.floor(clock.now() / 1000);
    const result = await verify(app, rp, { code: codeOf(res.data.redirect_to), code_verifier: ch.verifier });
    expect(result.data).toEqual({
      user_id: world.user.user.id,
      client_id: rp.client_id,
      verified_at: verifiedAt,
      action: ACTION,
      nonce: NONCE,
      method: "backup",
    });
    const again = await newChallenge(app, rp);
    const reused = await approve(world.browser, again, { method: "backup", code: backup });
    expect(reused.status).toBe(200);
    expect(reused.data).toEqual({
      redirect_to: deniedRedirect(again),
      error: "access_denied",
      error_description: "That backup code is not right or was already used. This confirmation is used up; the application has to ask again.",
    });
  });

  it("created, the user confirms through an open sudo window: code and state, method sudo", async () => {
    const client = await anotherApp("Sudo row app");
    await openWindow(world.browser, client);
    const ch = await newChallenge(app, client);
    const res = await approve(world.browser, ch, { method: "sudo" });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
    const result = await verify(app, client, { code: codeOf(res.data.redirect_to), code_verifier: ch.verifier });
    expect(result.status).toBe(200);
    expect(result.data.method).toBe("sudo");
  });

  it("created, the user rejects: closed, redirect with error=access_denied and state", async () => {
    const ch = await newChallenge(app, rp);
    const res = await confirm(world.browser, { challenge_id: ch.id, state: ch.state, decision: "reject" });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ redirect_to: deniedRedirect(ch), error: "access_denied", error_description: "You did not confirm the action." });
    expect(await info(world.browser, ch.id)).toMatchObject({ status: 404, data: GONE });
    const late = await approve(world.browser, ch, { method: "totp", code: await code() });
    expect(late.status).toBe(404);
    expect(late.data).toEqual(GONE);
  });

  it("created, a failed TOTP attempt: access_denied and the challenge is consumed (a right code then gets 404)", async () => {
    const ch = await newChallenge(app, rp);
    clock.advance(75_000);
    const res = await approve(world.browser, ch, { method: "totp", code: await wrongCode(world.secret) });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      redirect_to: deniedRedirect(ch),
      error: "access_denied",
      error_description: "That code is not right. This confirmation is used up; the application has to ask again.",
    });
    const retry = await approve(world.browser, ch, { method: "totp", code: await code() });
    expect(retry.status).toBe(404);
    expect(retry.data).toEqual(GONE);
    expect((await info(world.browser, ch.id)).status).toBe(404);
  });

  it("created, the confirmation box is not ticked: 400, no attempt is made and the same challenge and code still work", async () => {
    const ch = await newChallenge(app, rp);
    const totp = await code();
    for (const confirmed of [false, undefined]) {
      const res = await approve(world.browser, ch, { method: "totp", code: totp, confirmed });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ error: "invalid_request", error_description: "Tick the box to confirm the action first." });
    }
    expect((await info(world.browser, ch.id)).status).toBe(200);
    const res = await approve(world.browser, ch, { method: "totp", code: totp });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
  });

  it("created, past the challenge expiry (10 minutes), answered: closed, access_denied with state", async () => {
    const ch = await newChallenge(app, rp);
    clock.advance(10 * 60_000 - 1);
    expect((await info(world.browser, ch.id)).status).toBe(200);
    clock.advance(1);
    const res = await approve(world.browser, ch, { method: "totp", code: "123456" });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ redirect_to: deniedRedirect(ch), error: "access_denied", error_description: "The confirmation request expired." });
    // closed now: a second answer finds nothing
    expect((await approve(world.browser, ch, { method: "totp", code: "123456" })).status).toBe(404);
    expect(await info(world.browser, ch.id)).toMatchObject({ status: 404, data: GONE });
  });

  it("created, past the challenge expiry, its page opened: closed, and the page gets the app's access_denied redirect (410)", async () => {
    const ch = await newChallenge(app, rp);
    clock.advance(10 * 60_000);
    const opened = await world.browser.json("GET", `${INFO}?challenge_id=${encodeURIComponent(ch.id)}&state=${ch.state}`);
    expect(opened.status).toBe(410);
    expect(opened.data).toEqual({
      error: "expired",
      error_description: "This confirmation request expired before it was answered. Go back to the application and start again.",
      redirect_to: deniedRedirect(ch),
      client_name: "Test app",
    });
    // Told once: after that it is a closed challenge like any other.
    expect(await info(world.browser, ch.id)).toMatchObject({ status: 404, data: GONE });
    expect((await approve(world.browser, ch, { method: "totp", code: "123456" })).status).toBe(404);
  });

  describe("code issued: POST /api/oauth/2fa/verify", () => {
    /** A challenge approved with a code from a fresh TOTP step, at a known moment. */
    async function issued(body: Record<string, unknown> = {}, client: RegisteredApp = rp) {
      const ch = await newChallenge(app, client, body);
      const res = await approve(world.browser, ch, { method: "totp", code: await code() });
      if (res.status !== 200 || res.data.error) throw new Error(`approval failed: ${res.status} ${JSON.stringify(res.data)}`);
      return { ch, code: codeOf(res.data.redirect_to), verifiedAt: Math.floor(clock.now() / 1000) };
    }
    const refused = (res: { status: number; data: unknown }) => {
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ error: "invalid_grant", error_description: "grant request is invalid" });
    };

    it("unused, unexpired, matching client, redirect_uri and verifier: the verified result with every field; single use", async () => {
      const nonce = "n".repeat(256);
      const { ch, code: c, verifiedAt } = await issued({ nonce, action: "Rotate the deploy key" });
      clock.advance(5 * 60_000 - 1);
      const res = await verify(app, rp, { code: c, code_verifier: ch.verifier });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.data).toEqual({
        user_id: world.user.user.id,
        client_id: rp.client_id,
        verified_at: verifiedAt,
        action: "Rotate the deploy key",
        nonce,
        method: "totp",
      });
      refused(await verify(app, rp, { code: c, code_verifier: ch.verifier }));
    });

    it("a challenge without action or nonce verifies with action '' and nonce null", async () => {
      const res = await askChallenge(app, rp, {});
      const ch = { id: res.data.challenge_id as string, state: "s-1", verifier: "", answer: res.data };
      const approved = await approve(world.browser, ch, { method: "totp", code: await code() });
      const result = await verify(app, rp, { code: codeOf(approved.data.redirect_to) });
      expect(result.status).toBe(200);
      expect(result.data).toMatchObject({ action: "", nonce: null, method: "totp" });
    });

    it("expired (5 minutes): invalid_grant", async () => {
      const { ch, code: c } = await issued();
      clock.advance(5 * 60_000 + 1000);
      refused(await verify(app, rp, { code: c, code_verifier: ch.verifier }));
    });

    it("another client: invalid_grant (and the code stays the right client's)", async () => {
      const other = await anotherApp("Code thief");
      const { ch, code: c } = await issued();
      refused(await verify(app, other, { code: c, code_verifier: ch.verifier }));
      expect((await verify(app, rp, { code: c, code_verifier: ch.verifier })).status).toBe(200);
    });

    it("another redirect_uri: invalid_grant", async () => {
      const { ch, code: c } = await issued();
      refused(await verify(app, rp, { code: c, code_verifier: ch.verifier, redirect_uri: "https://rp.example.com/other" }));
      expect((await verify(app, rp, { code: c, code_verifier: ch.verifier })).status).toBe(200);
    });

    it("a wrong PKCE verifier: invalid_grant", async () => {
      const { ch, code: c } = await issued();
      refused(await verify(app, rp, { code: c, code_verifier: (await pkce()).verifier }));
      expect((await verify(app, rp, { code: c, code_verifier: ch.verifier })).status).toBe(200);
    });

    it("a missing PKCE verifier: invalid_grant", async () => {
      const { ch, code: c } = await issued();
      refused(await verify(app, rp, { code: c }));
      expect((await verify(app, rp, { code: c, code_verifier: ch.verifier })).status).toBe(200);
    });

    it("a verifier for a challenge made without PKCE: invalid_grant", async () => {
      const res = await askChallenge(app, rp, { action: ACTION });
      const ch = { id: res.data.challenge_id as string, state: "s-2", verifier: "", answer: res.data };
      const approved = await approve(world.browser, ch, { method: "totp", code: await code() });
      const c = codeOf(approved.data.redirect_to);
      refused(await verify(app, rp, { code: c, code_verifier: (await pkce()).verifier }));
      expect((await verify(app, rp, { code: c })).status).toBe(200);
    });

    it("an unknown code is invalid_grant; a missing code is invalid_request; bad client credentials are invalid_client", async () => {
      refused(await verify(app, rp, { code: "no-such-code", code_verifier: (await pkce()).verifier }));
      const missing = await verify(app, rp, {});
      expect(missing.status).toBe(400);
      expect(missing.data.error).toBe("invalid_request");
      const badClient = await postForm(app, VERIFY, { code: "x", redirect_uri: REDIRECT }, { basic: [rp.client_id, "wrong"] });
      expect(badClient.status).toBe(401);
      expect(badClient.data.error).toBe("invalid_client");
    });
  });
});
