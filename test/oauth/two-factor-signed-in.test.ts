import { beforeAll, describe, expect, it } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { type SignedUp, signUp } from "../helpers/identity.ts";
import type { RegisteredApp } from "./oauth.fixtures.ts";
import { approve, approvedRedirect, challengesWorld } from "./two-factor-challenges.fixtures.ts";
import { confirm, INFO, info, newChallenge, type twoFactorWorld } from "./two-factor.fixtures.ts";

/* Spec 1 section 5 rule 7: only a signed-in session of a user with a second factor can answer a challenge, and only with a decision and a method it has. */
const { cast, code } = challengesWorld();
let app: TestApp;
let world: Awaited<ReturnType<typeof twoFactorWorld>>;
let rp: RegisteredApp;
beforeAll(() => ({ app, world, rp } = cast));

describe("spec 1 section 5 rule 7: signed in, with a second factor", () => {
  let plain: SignedUp;
  beforeAll(async () => {
    plain = await signUp(app, "no-factor");
  });

  it("a user with neither TOTP nor a passkey: info 403 forbidden and approve 403; the challenge stays open", async () => {
    const ch = await newChallenge(app, rp);
    const page = await info(plain.browser, ch.id);
    expect(page.status).toBe(403);
    expect(page.data).toEqual({
      error: "forbidden",
      error_description: "Confirming an action needs a second factor: add an authenticator app or a passkey on your account page first.",
    });
    for (const method of ["totp", "backup", "sudo"]) {
      const res = await approve(plain.browser, ch, { method, code: "123456" });
      expect(res.status).toBe(403);
      expect(res.data.error).toBe("forbidden");
    }
    expect((await info(world.browser, ch.id)).status).toBe(200);
  });

  it("not signed in: info and authorize are 401", async () => {
    const ch = await newChallenge(app, rp);
    const anonymous = app.client();
    const page = await info(anonymous, ch.id);
    expect(page.status).toBe(401);
    expect(page.data.error).toBe("invalid_token");
    const res = await approve(anonymous, ch, { method: "totp", code: "123456" });
    expect(res.status).toBe(401);
    expect(res.data.error).toBe("invalid_token");
    expect((await info(world.browser, ch.id)).status).toBe(200);
  });

  it("an access token is no session: 403 on info", async () => {
    const pat = (await world.browser.json("POST", "/api/oauth/me/tokens", { name: "t", scopes: ["profile"] })).data.secret as string;
    const ch = await newChallenge(app, rp);
    const res = await app.client().json("GET", `${INFO}?challenge_id=${ch.id}`, undefined, { authorization: `Bearer ${pat}` });
    expect(res.status).toBe(403);
    expect(res.data.error).toBe("forbidden");
  });

  it("a method the user does not have, or no method or code, is 400 and the challenge stays open", async () => {
    const ch = await newChallenge(app, rp);
    const cases: [Record<string, unknown>, string][] = [
      [{ method: "passkey", passkey: { challenge_id: "x", response: {} } }, "You have no passkey to confirm with."],
      [{}, "Choose how to confirm: totp, passkey, backup or sudo."],
      [{ method: "totp" }, "Enter the code."],
    ];
    for (const [body, description] of cases) {
      const res = await approve(world.browser, ch, body);
      expect(res.status).toBe(400);
      expect(res.data).toEqual({ error: "invalid_request", error_description: description });
    }
    const unknown = await approve(world.browser, ch, { method: "sms", code: "123456" });
    expect(unknown.status).toBe(400);
    expect((await info(world.browser, ch.id)).status).toBe(200);
  });

  it("a TOTP or backup confirmation with no code at all, or an empty one, is 400 and the challenge stays open; a code then confirms", async () => {
    const ch = await newChallenge(app, rp);
    for (const body of [{ method: "backup" }, { method: "totp", code: "" }, { method: "backup", code: "" }]) {
      const res = await approve(world.browser, ch, body);
      expect({ body, status: res.status, data: res.data }).toEqual({
        body,
        status: 400,
        data: { error: "invalid_request", error_description: "Enter the code." },
      });
    }
    expect((await info(world.browser, ch.id)).status).toBe(200);
    const ok = await approve(world.browser, ch, { method: "totp", code: await code() });
    expect(ok.data).toEqual({ redirect_to: approvedRedirect(ch, ok.data.redirect_to) });
  });

  it("an answer without a decision is 400, not an approval; the challenge stays open", async () => {
    const ch = await newChallenge(app, rp);
    const totp = await code();
    const res = await confirm(world.browser, { challenge_id: ch.id, state: ch.state, confirmed: true, method: "totp", code: totp });
    expect(res.status).toBe(400);
    expect(res.data.error).toBe("invalid_request");
    expect((await info(world.browser, ch.id)).status).toBe(200);
    const ok = await approve(world.browser, ch, { method: "totp", code: totp });
    expect(ok.data).toEqual({ redirect_to: approvedRedirect(ch, ok.data.redirect_to) });
  });
});
