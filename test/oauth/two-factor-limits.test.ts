import { beforeAll, describe, expect, it } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { totpCode } from "../helpers/identity.ts";
import type { RegisteredApp } from "./oauth.fixtures.ts";
import { approve, approvedRedirect, challengesWorld } from "./two-factor-challenges.fixtures.ts";
import { askChallenge, codeOf, info, newChallenge, twoFactorWorld, verify } from "./two-factor.fixtures.ts";

/* Spec 1 section 8: the limits on a challenge's text, on how many an app asks for and a user attempts, and on a code's life. */
const { cast, clock, anotherApp, openWindow, wrongCode } = challengesWorld();
let app: TestApp;
let world: Awaited<ReturnType<typeof twoFactorWorld>>;
let rp: RegisteredApp;
beforeAll(() => ({ app, world, rp } = cast));

describe("spec 1 section 8 limits", () => {
  it("action: 200 characters are accepted and shown verbatim, 201 are refused; characters, not UTF-16 units", async () => {
    for (const action of ["a".repeat(200), "😀".repeat(200), `${"é".repeat(199)}😀`]) {
      const res = await askChallenge(app, rp, { action });
      expect(res.status).toBe(201);
      expect((await info(world.browser, res.data.challenge_id)).data.action).toBe(action);
    }
    for (const action of ["a".repeat(201), "😀".repeat(201), `${"a".repeat(200)}😀`]) {
      const res = await askChallenge(app, rp, { action });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ error: "invalid_request", error_description: "action is longer than 200 characters" });
    }
  });

  it("action: control characters, bidirectional overrides and lone surrogates are refused (what is read is what is meant)", async () => {
    for (const action of ["Delete\u202Eetis/emca", "Delete\nrepository", "Delete\u0000x", "Delete\u2066x\u2069", "x\ud800y"]) {
      const res = await askChallenge(app, rp, { action });
      expect(res.status).toBe(400);
      expect(res.data.error).toBe("invalid_request");
    }
    const nonce = await askChallenge(app, rp, { action: "ok", nonce: "n\udc00" });
    expect(nonce.status).toBe(400);
    expect(nonce.data).toEqual({ error: "invalid_request", error_description: "nonce is not well-formed Unicode" });
    expect((await askChallenge(app, rp, { action: "Übertrag löschen: «acme/site» 🗑️ (ﬁnal)" })).status).toBe(201);
  });

  it("nonce: 256 characters are accepted, 257 are refused", async () => {
    expect((await askChallenge(app, rp, { nonce: "n".repeat(256) })).status).toBe(201);
    expect((await askChallenge(app, rp, { nonce: "🔑".repeat(256) })).status).toBe(201);
    for (const nonce of ["n".repeat(257), "🔑".repeat(257)]) {
      const res = await askChallenge(app, rp, { nonce });
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ error: "invalid_request", error_description: "nonce is longer than 256 characters" });
    }
  });

  it("challenge creation: 60 a minute per client; the 61st is 429 with Retry-After while another client is served", async () => {
    const busy = await anotherApp("Busy app");
    const quiet = await anotherApp("Quiet app");
    for (let i = 0; i < 60; i++) {
      const res = await askChallenge(app, busy, { action: `#${i}` });
      if (res.status !== 201) throw new Error(`request ${i + 1} was refused: ${res.status}`);
    }
    clock.advance(20_000);
    const over = await askChallenge(app, busy, { action: "#61" });
    expect(over.status).toBe(429);
    expect(over.data).toEqual({ error: "too_many_requests", error_description: "At most 60 challenges a minute per client; try again later." });
    expect(over.headers.get("retry-after")).toBe("40");
    expect((await askChallenge(app, quiet, {})).status).toBe(201);
    clock.advance(40_000);
    expect((await askChallenge(app, busy, {})).status).toBe(201);
  });

  it("TOTP attempts: 8 per 5 minutes per user; the 9th is 429 and leaves its challenge open; later it is allowed again", async () => {
    const w = await twoFactorWorld(app, clock, "counted");
    clock.advance(5 * 60_000); // the enrolment's and the sign-in's attempts leave the window
    // one right code and seven wrong ones, each on its own challenge (a wrong one uses its challenge up)
    const first = await newChallenge(app, w.rp);
    expect((await approve(w.browser, first, { method: "totp", code: await totpCode(w.secret, clock.now()) })).data.error).toBeUndefined();
    for (let i = 0; i < 7; i++) {
      const ch = await newChallenge(app, w.rp);
      expect((await approve(w.browser, ch, { method: "totp", code: await wrongCode(w.secret) })).data.error).toBe("access_denied");
    }
    const ninth = await newChallenge(app, w.rp);
    const right = await totpCode(w.secret, clock.now(), 1);
    const limited = await approve(w.browser, ninth, { method: "totp", code: right });
    expect(limited.status).toBe(429);
    expect(limited.data).toEqual({ error: "too_many_attempts", error_description: "Too many attempts. Try again in 5 minutes." });
    expect(limited.headers.get("retry-after")).toBe("300");
    // backup codes count against the same limit
    const backup = await approve(w.browser, ninth, { method: "backup", code: w.backupCodes[0] });
    expect(backup.status).toBe(429);
    expect((await info(w.browser, ninth.id)).status).toBe(200);

    clock.advance(5 * 60_000 - 1);
    expect((await approve(w.browser, ninth, { method: "totp", code: await totpCode(w.secret, clock.now()) })).status).toBe(429);
    clock.advance(1);
    const res = await approve(w.browser, ninth, { method: "totp", code: await totpCode(w.secret, clock.now()) });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ redirect_to: approvedRedirect(ninth, res.data.redirect_to) });
  });

  it("the code lives 5 minutes: redeemable 1 ms before, refused at 5 minutes", async () => {
    const client = await anotherApp("Lifetime app");
    await openWindow(world.browser, client);
    const a = await newChallenge(app, client);
    const b = await newChallenge(app, client);
    const codeA = codeOf((await approve(world.browser, a, { method: "sudo" })).data.redirect_to);
    const codeB = codeOf((await approve(world.browser, b, { method: "sudo" })).data.redirect_to);
    clock.advance(5 * 60_000 - 1);
    expect((await verify(app, client, { code: codeA, code_verifier: a.verifier })).status).toBe(200);
    clock.advance(1);
    const late = await verify(app, client, { code: codeB, code_verifier: b.verifier });
    expect(late.status).toBe(400);
    expect(late.data.error).toBe("invalid_grant");
  });
});
