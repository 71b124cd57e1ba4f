import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { tempDir } from "../helpers/temp.ts";
import { waitFor } from "../helpers/wait.ts";
import { deliverDue, LOGOUT_TOKEN_TTL_SECONDS, MAX_ATTEMPTS } from "../../src/oauth/logout/backchannel.service.ts";
import { confidentialApp, obtainTokensRaw, type RegisteredApp, signInAgain } from "./oauth.fixtures.ts";

const EVENT = "http://schemas.openid.net/event/backchannel-logout";

/** A self-signed certificate for 127.0.0.1: the receivers are HTTPS, trusted only by this test's Cairn. */
function selfSigned() {
  const dir = tempDir();
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  return { cert: readFileSync(join(dir, "cert.pem"), "utf8"), key: readFileSync(join(dir, "key.pem"), "utf8") };
}

const tls = selfSigned();
const clock = manualClock();
/** What each receiver got, and how it answers next. */
const received: { path: string; token: string }[] = [];
let failing = true;
let receiver: ReturnType<typeof Bun.serve>;
let app: TestApp;
let owner: SignedUp;
let good: RegisteredApp;
let flaky: RegisteredApp;
let silent: RegisteredApp;

beforeAll(async () => {
  receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    tls,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const form = new URLSearchParams(await request.text());
      received.push({ path, token: form.get("logout_token") ?? "" });
      if (path === "/flaky" && failing) return new Response("down", { status: 500 });
      return new Response(null, { status: 200 });
    },
  });
  app = await startApp({ overrides: { clock, outbound: { allowLoopback: true, testCa: tls.cert } } });
  owner = await signUp(app, "owner");
  const base = `https://127.0.0.1:${receiver.port}`;
  good = await confidentialApp(app, owner, { backchannel_logout_uri: `${base}/good` });
  flaky = await confidentialApp(app, owner, { backchannel_logout_uri: `${base}/flaky` });
  silent = await confidentialApp(app, owner);
});
afterAll(async () => {
  receiver.stop(true);
  await app.stop();
});

const log = async (r: RegisteredApp) =>
  (await owner.browser.json("GET", `/api/oauth/me/clients/${r.client_id}/backchannel-deliveries`)).data.deliveries as any[];
const tokensFor = (path: string) => received.filter((r) => r.path === path);

describe("OIDC Back-Channel Logout 1.0", () => {
  let alice: SignedUp;
  let sid: string;
  beforeAll(async () => {
    alice = await signUp(app, "alice");
    sid = (await alice.browser.json("GET", "/api/auth/session")).data.session.sid;
    for (const r of [good, flaky, silent]) await obtainTokensRaw(app, alice, r, "openid");
    await alice.browser.json("POST", "/api/auth/logout", {});
  });

  it("POSTs an RS256 logout+jwt per spec 2.6 to each app that got tokens in the session, verifiable with the JWKS", async () => {
    const { token } = await waitFor(() => tokensFor("/good")[0], { what: "the logout token" });
    const header = decodeProtectedHeader(token);
    expect(header).toMatchObject({ alg: "RS256", typ: "logout+jwt" });
    const jwks = createLocalJWKSet((await app.json("GET", "/.well-known/jwks.json")).data);
    const { payload } = await jwtVerify(token, jwks, {
      issuer: app.url,
      audience: good.client_id,
      typ: "logout+jwt",
      requiredClaims: ["iss", "aud", "iat", "exp", "jti", "sid", "events"],
      currentDate: new Date(clock.now()),
    });
    expect(payload).toMatchObject({ sub: alice.user.id, sid, events: { [EVENT]: {} } });
    expect(payload.jti).toBeString();
    expect(payload.iat).toBe(Math.floor(clock.now() / 1000));
    expect(payload.nonce).toBeUndefined();
    // Back-Channel Logout 1.0 section 2.4: exp is required; a short one, so a captured token soon stops working.
    expect(payload.exp).toBe((payload.iat as number) + LOGOUT_TOKEN_TTL_SECONDS);
    expect(LOGOUT_TOKEN_TTL_SECONDS).toBe(120);
    const late = jwtVerify(token, jwks, { issuer: app.url, audience: good.client_id, currentDate: new Date(clock.now() + 121_000) });
    await expect(late).rejects.toMatchObject({ code: "ERR_JWT_EXPIRED" });
    expect((await log(good))[0]).toMatchObject({ status: "delivered", attempts: 1, sid, last_error: null });
  });

  it("tells nobody else: an app without a back-channel URI gets nothing", async () => {
    expect(await log(silent)).toEqual([]);
  });

  it("retries a failing receiver with backoff, logs each failure, and delivers once it answers", async () => {
    await waitFor(async () => (await log(flaky))[0]?.attempts === 1, { what: "the first failed attempt" });
    expect((await log(flaky))[0]).toMatchObject({
      status: "pending",
      attempts: 1,
      last_error: "the receiver answered 500",
      next_attempt_at: clock.now() + 30_000,
    });
    expect(app.logs.some((l) => l.msg === "back-channel logout not delivered" && l.client_id === flaky.client_id)).toBe(true);
    // Not yet due: nothing is sent.
    expect(await deliverDue(app.ctx)).toBe(0);
    clock.advance(30_000);
    await deliverDue(app.ctx);
    expect((await log(flaky))[0]).toMatchObject({ status: "pending", attempts: 2 });
    failing = false;
    clock.advance(5 * 60_000);
    expect(await deliverDue(app.ctx)).toBe(1);
    expect((await log(flaky))[0]).toMatchObject({ status: "delivered", attempts: 3, last_error: null });
    // The same jti each time: the receiver can tell a retry from a new logout.
    const jtis = new Set(tokensFor("/flaky").map((r) => decodeJwtPayload(r.token).jti));
    expect(jtis.size).toBe(1);
    // Signed afresh for each attempt: the last one is valid when it is sent, hours after the logout.
    const last = decodeJwtPayload((tokensFor("/flaky").at(-1) as { token: string }).token);
    expect([last.iat, last.exp]).toEqual([Math.floor(clock.now() / 1000), Math.floor(clock.now() / 1000) + LOGOUT_TOKEN_TTL_SECONDS]);
    failing = true;
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts`, async () => {
    const bob = await signUp(app, "bob");
    await obtainTokensRaw(app, bob, flaky, "openid");
    await bob.browser.json("POST", "/api/auth/logout", {});
    await waitFor(async () => (await log(flaky)).some((d) => d.status === "pending" && d.attempts === 1), { what: "bob's first attempt" });
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      clock.advance(7 * 3_600_000);
      await deliverDue(app.ctx);
    }
    const bobs = (await log(flaky)).find((d) => d.status !== "delivered");
    expect(bobs).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, next_attempt_at: null });
  });

  it("follows every sign-out: signing out other sessions from the account page counts too", async () => {
    const carol = await signUp(app, "carol");
    const first = (await carol.browser.json("GET", "/api/auth/session")).data.session.sid;
    await obtainTokensRaw(app, carol, good, "openid");
    await signInAgain(carol);
    const before = tokensFor("/good").length;
    const sessions = (await carol.browser.json("GET", "/api/oauth/me/sessions")).data.sessions as { sid?: string; id?: string }[];
    expect(sessions.length).toBeGreaterThan(1);
    const revoke = await carol.browser.json("DELETE", `/api/oauth/me/sessions/${first}`);
    expect(revoke.status).toBe(200);
    const next = await waitFor(() => tokensFor("/good")[before], { what: "carol's logout token" });
    expect(decodeJwtPayload(next.token)).toMatchObject({ sub: carol.user.id, sid: first });
  });

  it("keeps what is owed across a restart", async () => {
    const dave = await signUp(app, "dave");
    await obtainTokensRaw(app, dave, flaky, "openid");
    await dave.browser.json("POST", "/api/auth/logout", {});
    await waitFor(async () => (await log(flaky)).some((d) => d.status === "pending" && d.attempts === 1), { what: "dave's first attempt" });
    const dataDir = app.dataDir;
    await app.stop();
    app = await startApp({ dataDir, overrides: { clock, outbound: { allowLoopback: true, testCa: tls.cert } } });
    failing = false;
    clock.advance(60_000);
    expect(await deliverDue(app.ctx)).toBe(1);
  });

  it("is advertised in discovery", async () => {
    const meta = (await app.json("GET", "/.well-known/openid-configuration")).data;
    expect(meta).toMatchObject({ backchannel_logout_supported: true, backchannel_logout_session_supported: true });
  });

  // Issue 43: grants go once their tokens end, but the session that signed in goes on.
  it("still reaches an app whose grant the purge deleted, while the session lives on", async () => {
    failing = false;
    const erin = await signUp(app, "erin");
    const sid = (await erin.browser.json("GET", "/api/auth/session")).data.session.sid;
    await obtainTokensRaw(app, erin, good, "openid");
    const grants = () => app.ctx.db.all(sql`SELECT count(*) AS n FROM oauth_grants WHERE user_id = ${erin.user.id}`);
    clock.advance(6 * 3_600_000);
    expect((await app.ctx.purges.run(clock.now())).failures).toEqual([]);
    expect(await grants()).toEqual([{ n: 0 }]);
    const before = tokensFor("/good").length;
    await erin.browser.json("POST", "/api/auth/logout", {});
    const next = await waitFor(() => tokensFor("/good")[before], { what: "erin's logout token" });
    expect(decodeJwtPayload(next.token)).toMatchObject({ sub: erin.user.id, sid });
  });
});

function decodeJwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1] as string, "base64url").toString("utf8"));
}
