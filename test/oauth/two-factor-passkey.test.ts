import { beforeAll, describe, expect, it } from "bun:test";
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { passkeys } from "../../src/identity/passkeys/passkeys.table.ts";
import type { TestApp } from "../helpers/app.ts";
import { jarFetch } from "../helpers/cookie-jar.ts";
import { PASSWORD, type SignedUp, signUp } from "../helpers/identity.ts";
import type { RegisteredApp } from "./oauth.fixtures.ts";
import { approve, approvedRedirect, challengesWorld, deniedRedirect, GONE } from "./two-factor-challenges.fixtures.ts";
import { type Challenge, codeOf, info, newChallenge, verify } from "./two-factor.fixtures.ts";

/* Confirming a challenge with a passkey (a user with a passkey and no TOTP), through a software authenticator. */
const { cast, clock, anotherApp } = challengesWorld();
let app: TestApp;
let rp: RegisteredApp;
beforeAll(() => ({ app, rp } = cast));

/** A software authenticator: one P-256 key, stored as the user's passkey, signing WebAuthn assertions. */
function softwarePasskey() {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const x = Buffer.from(jwk.x as string, "base64url");
  const y = Buffer.from(jwk.y as string, "base64url");
  // COSE_Key {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}, CBOR-encoded by hand
  const cose = Buffer.concat([Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]), x, Buffer.from([0x22, 0x58, 0x20]), y]);
  const id = randomBytes(16).toString("base64url");
  let counter = 0;
  return {
    id,
    cose: cose.toString("base64url"),
    assert(challenge: string, rpId: string, origin: string) {
      counter++;
      const flags = Buffer.from([0x05]); // user present, user verified
      const count = Buffer.alloc(4);
      count.writeUInt32BE(counter);
      const authenticatorData = Buffer.concat([createHash("sha256").update(rpId).digest(), flags, count]);
      const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge, origin, crossOrigin: false }));
      const signature = sign("sha256", Buffer.concat([authenticatorData, createHash("sha256").update(clientDataJSON).digest()]), privateKey);
      return {
        id,
        rawId: id,
        type: "public-key",
        clientExtensionResults: {},
        response: {
          authenticatorData: authenticatorData.toString("base64url"),
          clientDataJSON: clientDataJSON.toString("base64url"),
          signature: signature.toString("base64url"),
        },
      };
    },
  };
}

describe("confirming with a passkey (a user with a passkey and no TOTP)", () => {
  let keyholder: SignedUp;
  let key: ReturnType<typeof softwarePasskey>;
  beforeAll(async () => {
    keyholder = await signUp(app, "keyholder");
    key = softwarePasskey();
    await app.ctx.db
      .insert(passkeys)
      .values({
        id: key.id,
        userId: keyholder.user.id,
        name: "Soft key",
        publicKey: key.cose,
        counter: 0,
        transports: ["internal"],
        deviceType: "singleDevice",
        backedUp: false,
        createdAt: clock.now(),
      })
      .run();
  });

  const passkeyProof = async (ch: Challenge) => {
    const options = await keyholder.browser.json("POST", "/api/oauth/2fa/passkey-options", { challenge_id: ch.id });
    if (options.status !== 200) throw new Error(`passkey options failed: ${options.status} ${JSON.stringify(options.data)}`);
    return { challenge_id: options.data.challenge_id as string, response: key.assert(options.data.options.challenge, options.data.options.rpId, app.url) };
  };

  it("info offers the passkey; a signed assertion confirms with method passkey and can open the sudo window", async () => {
    const client = await anotherApp("Passkey app");
    const ch = await newChallenge(app, client);
    expect((await info(keyholder.browser, ch.id)).data.methods).toEqual(["passkey"]);
    const res = await approve(keyholder.browser, ch, { method: "passkey", passkey: await passkeyProof(ch), remember_sudo: true });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ redirect_to: approvedRedirect(ch, res.data.redirect_to) });
    const result = await verify(app, client, { code: codeOf(res.data.redirect_to), code_verifier: ch.verifier });
    expect(result.data).toMatchObject({ user_id: keyholder.user.id, method: "passkey" });
    const next = await newChallenge(app, client);
    expect((await info(keyholder.browser, next.id)).data.sudo_available).toBe(true);
    expect((await approve(keyholder.browser, next, { method: "sudo" })).status).toBe(200);
  });

  it("a passkey assertion that does not verify: access_denied and the challenge is consumed", async () => {
    const ch = await newChallenge(app, rp);
    const proof = await passkeyProof(ch);
    const forged = { ...proof, response: { ...proof.response, response: { ...proof.response.response, signature: Buffer.alloc(70).toString("base64url") } } };
    const res = await approve(keyholder.browser, ch, { method: "passkey", passkey: forged });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      redirect_to: deniedRedirect(ch),
      error: "access_denied",
      error_description: "The passkey could not be verified. This confirmation is used up; the application has to ask again.",
    });
    expect((await approve(keyholder.browser, ch, { method: "passkey", passkey: proof })).status).toBe(404);
  });

  it("a response of the wrong shape is an error of table 3.3, never a 5xx: closed, access_denied", async () => {
    for (const response of [{ id: { toString: 1 } }, { id: 42 }, "not an object", null, []]) {
      const ch = await newChallenge(app, rp);
      const proof = await passkeyProof(ch);
      const res = await approve(keyholder.browser, ch, { method: "passkey", passkey: { challenge_id: proof.challenge_id, response } });
      expect(res.status).toBe(200);
      expect(res.data.error).toBe("access_denied");
      expect(res.data.redirect_to).toBe(deniedRedirect(ch));
      expect((await info(keyholder.browser, ch.id)).status).toBe(404);
    }
  });

  it("a passkey challenge of the confirmation page does not stand in for a sign-in's second step", async () => {
    const ch = await newChallenge(app, rp);
    const proof = await passkeyProof(ch);
    const login = await jarFetch(app.url).json("POST", "/api/auth/login", { login: "keyholder", password: PASSWORD });
    expect(login.data.mfa_required).toBe(true);
    const res = await jarFetch(app.url).json("POST", "/api/auth/login/mfa", { mfa_token: login.data.mfa_token, passkey: proof });
    expect(res.status).toBe(400);
    expect(res.data.error_description).toBe("The passkey challenge is unknown, used or expired. Start again.");
  });

  it("a passkey confirmation without the passkey's answer is 400 and the challenge stays open; the passkey then confirms", async () => {
    const ch = await newChallenge(app, rp);
    const res = await approve(keyholder.browser, ch, { method: "passkey" });
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ error: "invalid_request", error_description: "Use your passkey first." });
    expect((await info(keyholder.browser, ch.id)).status).toBe(200);
    const ok = await approve(keyholder.browser, ch, { method: "passkey", passkey: await passkeyProof(ch) });
    expect(ok.data).toEqual({ redirect_to: approvedRedirect(ch, ok.data.redirect_to) });
  });

  it("passkey options need an open challenge", async () => {
    const res = await keyholder.browser.json("POST", "/api/oauth/2fa/passkey-options", { challenge_id: "no-such-challenge" });
    expect(res.status).toBe(404);
    expect(res.data).toEqual(GONE);
  });
});
