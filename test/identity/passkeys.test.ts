import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { passkeys } from "../../src/identity/passkeys/passkeys.table.ts";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";

// The full ceremony (a real authenticator signing) runs in Chromium: test/e2e. Here: the API around it.
let app: TestApp;
let user: SignedUp;
beforeAll(async () => {
  app = await startApp({ host: "localhost" });
  await signUp(app, "admin");
  user = await signUp(app, "keyholder");
});
afterAll(() => app.stop());

const addRow = (id: string, userId: string) =>
  app.ctx.db
    .insert(passkeys)
    .values({
      id,
      userId,
      name: "Laptop",
      publicKey: "AA",
      counter: 0,
      transports: ["internal"],
      deviceType: "singleDevice",
      backedUp: false,
      createdAt: Date.now(),
    })
    .run();

describe("passkey registration options", () => {
  it("name this instance as relying party by the issuer's host and ask for a discoverable credential", async () => {
    const res = await user.browser.json("POST", "/api/oauth/me/passkeys/options");
    expect(res.status).toBe(200);
    expect(res.data.options.rp).toEqual({ name: "Cairn", id: "localhost" });
    expect(res.data.options.user.name).toBe("keyholder");
    expect(res.data.options.authenticatorSelection.residentKey).toBe("required");
    expect(typeof res.data.challenge_id).toBe("string");
  });

  it("use each challenge once, even when the response is garbage", async () => {
    const { challenge_id } = (await user.browser.json("POST", "/api/oauth/me/passkeys/options")).data;
    const garbage = { challenge_id, name: "Key", response: { id: "abc", rawId: "abc", type: "public-key", response: {} } };
    const first = await user.browser.json("POST", "/api/oauth/me/passkeys", garbage);
    expect(first.status).toBe(400);
    const second = await user.browser.json("POST", "/api/oauth/me/passkeys", garbage);
    expect(second.data.error_description).toContain("unknown, used or expired");
  });

  it("are refused to someone else's challenge", async () => {
    const other = await signUp(app, "other");
    const { challenge_id } = (await user.browser.json("POST", "/api/oauth/me/passkeys/options")).data;
    const res = await other.browser.json("POST", "/api/oauth/me/passkeys", { challenge_id, name: "x", response: { id: "abc" } });
    expect(res.data.error_description).toContain("unknown, used or expired");
  });
});

describe("passkey sign-in options", () => {
  it("ask for any discoverable passkey, with nobody signed in", async () => {
    const res = await app.client().json("POST", "/api/auth/passkey/options");
    expect(res.status).toBe(200);
    expect(res.data.options.rpId).toBe("localhost");
    expect(res.data.options.allowCredentials).toEqual([]);
    const bad = await app.client().json("POST", "/api/auth/passkey/verify", { challenge_id: res.data.challenge_id, response: { id: "unknown" } });
    expect(bad.status).toBe(400);
  });
});

describe("managing passkeys", () => {
  it("lists, renames and deletes the user's own passkeys only", async () => {
    await addRow("cred-1", user.user.id);
    const list = await user.browser.json("GET", "/api/oauth/me/passkeys");
    expect(list.data.passkeys).toEqual([expect.objectContaining({ id: "cred-1", name: "Laptop" })]);
    expect((await user.browser.json("PATCH", "/api/oauth/me/passkeys/cred-1", { name: "  Work laptop " })).status).toBe(200);
    expect((await user.browser.json("GET", "/api/oauth/me/passkeys")).data.passkeys[0].name).toBe("Work laptop");
    expect((await user.browser.json("PATCH", "/api/oauth/me/passkeys/cred-1", { name: "" })).status).toBe(400);
    const stranger = await signUp(app, "stranger");
    expect((await stranger.browser.json("PATCH", "/api/oauth/me/passkeys/cred-1", { name: "mine" })).status).toBe(404);
    expect((await stranger.browser.json("DELETE", "/api/oauth/me/passkeys/cred-1")).status).toBe(404);
    expect((await user.browser.json("DELETE", "/api/oauth/me/passkeys/cred-1")).status).toBe(200);
    expect((await user.browser.json("GET", "/api/oauth/me/passkeys")).data.passkeys).toEqual([]);
  });

  it("a user with a passkey is asked for it after the password", async () => {
    const u = await signUp(app, "twofactor");
    await addRow("cred-2", u.user.id);
    const res = await app.client().json("POST", "/api/auth/login", { login: "twofactor", password: "correct horse battery staple" });
    expect(res.data).toMatchObject({ mfa_required: true, methods: ["passkey"] });
    const options = await app.client().json("POST", "/api/auth/login/mfa/passkey-options", { mfa_token: res.data.mfa_token });
    expect(options.data.options.allowCredentials).toEqual([{ id: "cred-2", type: "public-key", transports: ["internal"] }]);
    expect((await app.client().json("POST", "/api/auth/login/mfa/passkey-options", { mfa_token: "nope" })).status).toBe(400);
  });
});
