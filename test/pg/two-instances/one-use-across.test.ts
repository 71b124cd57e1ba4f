import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import * as client from "openid-client";
import { accessTokenHash } from "../../../src/oauth/protocol/dpop.ts";
import { readAnswer } from "../../helpers/cookie-jar.ts";
import { PASSWORD, totpCode } from "../../helpers/identity.ts";
import { REDIRECT, registerApp } from "../../helpers/oauth.ts";
import { startSmtp, type TestSmtp } from "../../helpers/smtp.ts";
import { mailEnv } from "../../helpers/workspace-mail.ts";
import { mailTo, tokenIn } from "../../identity/identity-mail.fixtures.ts";
import { authorizeCode, postForm, TOKEN, visit } from "../../oauth/oauth.fixtures.ts";
import { adminWithOpenRegistration, type Person, register, relyingPartyAt } from "./people.fixture.ts";
import {
  anyBalancer,
  anyBalancerName,
  anyBalancerSkipReason,
  type Instance,
  START_PATIENCE_MS,
  startTwoInstances,
  type TwoInstances,
} from "./two-instances.fixture.ts";

// Issue 46: one-use values stay one-use across instances. For each kind, 50 identical requests,
// 25 to A and 25 to B, all at once: exactly one succeeds, and every other one is refused as used.
const skip = anyBalancerSkipReason;
if (skip) console.warn(`skipping the two-instance one-use tests: ${skip}`);

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/** An answer as one word for a tally: its status and, for an error, its `error` code. */
const label = (answer: { status: number; data: any }) => (answer.status < 300 ? String(answer.status) : `${answer.status} ${answer.data?.error ?? ""}`.trim());

/** How many answers had each label. */
function tally(labels: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const l of labels) counts[l] = (counts[l] ?? 0) + 1;
  return counts;
}

describe.skipIf(skip !== null)(`issue 46: one-use values across two instances behind ${anyBalancerName}`, () => {
  let t: TwoInstances;
  let smtp: TestSmtp;
  let admin: Person;
  let alice: Person;
  let rp: { client_id: string; client_secret: string; config: client.Configuration };
  const basic = () => ({ basic: [rp.client_id, rp.client_secret] as [string, string] });

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTwoInstances(anyBalancer as NonNullable<typeof anyBalancer>, mailEnv(smtp.url));
    admin = await adminWithOpenRegistration(t);
    alice = await register(t, t.a, "alice");
    const registered = await registerApp(admin.at(t.b), { grant_types: ["authorization_code", "refresh_token", DEVICE_GRANT] });
    rp = {
      ...registered,
      client_secret: registered.client_secret as string,
      config: await relyingPartyAt(t, t.a, registered.client_id, registered.client_secret),
    };
  }, START_PATIENCE_MS);
  afterAll(async () => {
    await t?.stop();
    await smtp?.stop();
  }, START_PATIENCE_MS);

  /** The same request 50 times at once: even ones to A, odd ones to B. */
  const fifty = <T>(send: (target: Instance, i: number) => Promise<T>): Promise<T[]> =>
    Promise.all(Array.from({ length: 50 }, (_, i) => send(i % 2 === 0 ? t.a : t.b, i)));

  it(
    "an authorization code (RFC 6749 section 4.1.2): one redemption gets tokens",
    () =>
      t.explained(async () => {
        const { code, verifier } = await authorizeCode(alice.at(t.a), rp, "openid offline_access");
        const form = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier };
        const answers = await fifty((target) => postForm(target, TOKEN, form, basic()));
        expect(tally(answers.map(label))).toEqual({ "200": 1, "400 invalid_grant": 49 });
      }),
    60_000,
  );

  it(
    "a refresh token (spec 1 section 3.2): one rotation; the replays end the grant",
    () =>
      t.explained(async () => {
        const { code, verifier } = await authorizeCode(alice.at(t.a), rp, "openid offline_access");
        const issued = await postForm(t.b, TOKEN, { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier }, basic());
        expect(issued.status).toBe(200);
        const form = { grant_type: "refresh_token", refresh_token: issued.data.refresh_token as string };
        const answers = await fifty((target) => postForm(target, TOKEN, form, basic()));
        expect(tally(answers.map(label))).toEqual({ "200": 1, "400 invalid_grant": 49 });
        const winner = answers.find((a) => a.status === 200)?.data;
        for (const target of [t.a, t.b])
          expect((await postForm(target, "/api/oauth/introspect", { token: winner.access_token }, basic())).data).toEqual({ active: false });
      }),
    60_000,
  );

  it(
    "a pushed authorization request's request_uri (RFC 9126): one authorization request goes on",
    () =>
      t.explained(async () => {
        const verifier = client.randomPKCECodeVerifier();
        const pushed = await postForm(
          t.a,
          "/api/oauth/par",
          {
            response_type: "code",
            redirect_uri: REDIRECT,
            scope: "openid profile",
            code_challenge: await client.calculatePKCECodeChallenge(verifier),
            code_challenge_method: "S256",
            state: "s1",
          },
          basic(),
        );
        expect(pushed.status).toBe(201);
        const path = `/api/oauth/authorize?${new URLSearchParams({ client_id: rp.client_id, request_uri: pushed.data.request_uri })}`;
        const answers = await fifty((target) => visit(alice.at(target), path));
        expect(
          tally(answers.map((a) => (a.status === 302 ? "302" : `${a.status}${a.body.includes("invalid_request_uri") ? " invalid_request_uri" : ""}`))),
        ).toEqual({
          "302": 1,
          "400 invalid_request_uri": 49,
        });
      }),
    60_000,
  );

  it(
    "a device code (RFC 8628 section 3.5): one poll gets tokens",
    () =>
      t.explained(async () => {
        const started = await postForm(t.a, "/api/oauth/device_authorization", { scope: "openid" }, basic());
        expect(started.status).toBe(200);
        const decided = await alice.at(t.b).browser.json("POST", "/api/oauth/device/decision", { user_code: started.data.user_code, decision: "approve" });
        expect(decided).toMatchObject({ status: 200, data: { ok: true } });
        const form = { grant_type: DEVICE_GRANT, device_code: started.data.device_code as string };
        const answers = await fifty((target) => postForm(target, TOKEN, form, basic()));
        expect(tally(answers.map(label))).toEqual({ "200": 1, "400 invalid_grant": 49 });
      }),
    60_000,
  );

  it(
    "a DPoP proof's jti (RFC 9449 section 11.1): one request with it passes",
    () =>
      t.explained(async () => {
        const keyPair = await client.randomDPoPKeyPair("ES256");
        const rpB = await relyingPartyAt(t, t.b, rp.client_id, rp.client_secret);
        const { verifier, state, callback } = await authorizeCode(alice.at(t.a), { config: rpB }, "openid");
        const tokens = await client.authorizationCodeGrant(rpB, callback, { pkceCodeVerifier: verifier, expectedState: state }, undefined, {
          DPoP: client.getDPoPHandle(rpB, keyPair),
        });
        expect(tokens.token_type.toLowerCase()).toBe("dpop");
        const proof = await new SignJWT({
          jti: crypto.randomUUID(),
          htm: "GET",
          htu: `${t.issuer}/api/oauth/userinfo`,
          ath: accessTokenHash(tokens.access_token),
        })
          .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: await exportJWK(keyPair.publicKey) })
          .setIssuedAt()
          .sign(keyPair.privateKey);
        const headers = { authorization: `DPoP ${tokens.access_token}`, dpop: proof };
        const answers = await fifty(async (target) => readAnswer(await fetch(`${target.url}/api/oauth/userinfo`, { headers })));
        expect(tally(answers.map(label))).toEqual({ "200": 1, "401 invalid_dpop_proof": 49 });
      }),
    60_000,
  );

  it(
    "a client assertion's jti (RFC 7523 section 3): one token request authenticated by it is served",
    () =>
      t.explained(async () => {
        const { privateKey, publicKey } = await generateKeyPair("EdDSA", { extractable: true });
        const service = await registerApp(admin.at(t.a), {
          token_endpoint_auth_method: "private_key_jwt",
          jwks: { keys: [{ ...(await exportJWK(publicKey)), alg: "EdDSA", kid: "k1" }] },
          grant_types: ["client_credentials"],
          client_credentials_scopes: ["backups:read"],
        });
        const assertion = await new SignJWT({ jti: crypto.randomUUID() })
          .setProtectedHeader({ alg: "EdDSA", kid: "k1" })
          .setIssuer(service.client_id)
          .setSubject(service.client_id)
          .setAudience(t.issuer)
          .setIssuedAt()
          .setExpirationTime("2m")
          .sign(privateKey);
        const form = {
          grant_type: "client_credentials",
          scope: "backups:read",
          client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
          client_assertion: assertion,
        };
        const answers = await fifty((target) => postForm(target, TOKEN, form));
        expect(tally(answers.map(label))).toEqual({ "200": 1, "401 invalid_client": 49 });
      }),
    60_000,
  );

  it(
    "a password reset link (issue 42): one reset sets its password",
    () =>
      t.explained(async () => {
        const rita = await register(t, t.b, "rita");
        const made = await admin.at(t.a).browser.json("POST", `/api/oauth/admin/users/${rita.user.id}/reset-link`);
        expect(made.status).toBe(201);
        const token = new URL(made.data.url).searchParams.get("token") as string;
        const answers = await fifty((target, i) => target.json("POST", "/api/auth/password/reset", { token, password: `concurrent passphrase ${i}` }));
        expect(tally(answers.map(label))).toEqual({ "200": 1, "400 invalid_reset_link": 49 });
        const won = answers.findIndex((a) => a.status === 200);
        const signIn = (password: string) => t.b.json("POST", "/api/auth/login", { login: "rita", password });
        expect((await signIn(`concurrent passphrase ${won}`)).status).toBe(200);
        expect((await signIn(PASSWORD)).status).toBe(401);
      }),
    60_000,
  );

  it(
    "an invitation (ARCHITECTURE section 4): one registration uses it",
    () =>
      t.explained(async () => {
        const made = await admin.at(t.b).browser.json("POST", "/api/oauth/admin/invites", {});
        expect(made.status).toBe(201);
        const answers = await fifty((target, i) =>
          target.json("POST", "/api/auth/register", { username: `racer${i}`, email: `racer${i}@example.com`, password: PASSWORD, invite: made.data.code }),
        );
        expect(tally(answers.map(label))).toEqual({ "201": 1, "403 forbidden": 49 });
        const listed = (await admin.at(t.a).browser.json("GET", "/api/oauth/admin/invites")).data.invites.find(
          (i: { id: string }) => i.id === made.data.invite.id,
        );
        expect(listed.status).toBe("used");
      }),
    60_000,
  );

  it(
    "an email verification link (issue 44 item 2): one confirmation verifies the address",
    () =>
      t.explained(async () => {
        const vera = await register(t, t.a, "vera");
        const token = tokenIn(await mailTo(smtp, "vera@example.com", "confirm your email address"), "/verify-email");
        const answers = await fifty((target) => target.json("POST", "/api/auth/email/confirm", { token }));
        expect(tally(answers.map(label))).toEqual({ "200": 1, "400 invalid_verification_link": 49 });
        expect((await vera.at(t.b).browser.json("GET", "/api/auth/session")).data.user.email_verified).toBe(true);
      }),
    60_000,
  );

  it(
    "a TOTP code and its sign-in step (RFC 6238 section 5.2): one second step signs in",
    () =>
      t.explained(async () => {
        const otto = await register(t, t.b, "otto");
        const secret: string = (await otto.at(t.a).browser.json("POST", "/api/oauth/me/totp")).data.secret;
        const confirmed = await otto.at(t.b).browser.json("POST", "/api/oauth/me/totp/confirm", { code: await totpCode(secret, Date.now()) });
        expect(confirmed.status).toBe(200);
        const first = await t.a.json("POST", "/api/auth/login", { login: "otto", password: PASSWORD });
        expect(first.data).toMatchObject({ mfa_required: true });
        // The next time step's code: the enrolment used this one's.
        const body = { mfa_token: first.data.mfa_token, code: await totpCode(secret, Date.now(), 1) };
        const answers = await fifty((target) => target.json("POST", "/api/auth/login/mfa", body));
        const counts = tally(answers.map(label));
        // The losers find the code used or the step taken (400); once they have spent the account's attempts, 429.
        expect(counts["200"]).toBe(1);
        expect(Object.keys(counts).filter((l) => l !== "200" && l !== "400 invalid_request" && l !== "429 too_many_attempts")).toEqual([]);
      }),
    60_000,
  );
});
