import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { authorizeInBrowser } from "../helpers/oauth.ts";
import { confidentialApp, pkce, postForm, publicApp, REDIRECT, type RegisteredApp, visit, startOAuthWorld } from "./oauth.fixtures.ts";

const PAR = "/api/oauth/par";
const clock = manualClock();
let app: TestApp;
let owner: SignedUp;
let user: SignedUp;
let rp: RegisteredApp;
beforeAll(async () => {
  ({ app, owner, user, rp } = await startOAuthWorld({ overrides: { clock } }));
});
afterAll(() => app.stop());

/** A pushed request's parameters: what the authorization endpoint would take. */
async function pushable(extra: Record<string, string> = {}) {
  const { verifier, challenge } = await pkce();
  return {
    verifier,
    form: {
      response_type: "code",
      redirect_uri: REDIRECT,
      scope: "openid profile",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "s1",
      ...extra,
    },
  };
}
const push = (form: Record<string, string>, r: RegisteredApp = rp) => postForm(app, PAR, form, { basic: [r.client_id, r.client_secret] });
const authorizePath = (requestUri: string, clientId = rp.client_id) =>
  `/api/oauth/authorize?${new URLSearchParams({ client_id: clientId, request_uri: requestUri })}`;

describe("RFC 9126: pushed authorization requests", () => {
  it("drives the whole code flow through openid-client's buildAuthorizationUrlWithPAR", async () => {
    const { verifier, challenge } = await pkce();
    const state = client.randomState();
    const url = await client.buildAuthorizationUrlWithPAR(rp.config, {
      redirect_uri: REDIRECT,
      scope: "openid profile",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state,
    });
    expect([...url.searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);
    const callback = await authorizeInBrowser(user, url);
    const tokens = await client.authorizationCodeGrant(rp.config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.claims()?.sub).toBe(user.user.id);
  });

  it("answers 201 with a request_uri URN that expires in 90 seconds (spec 2.4 and 8)", async () => {
    const res = await push((await pushable()).form);
    expect(res.status).toBe(201);
    expect(res.data.expires_in).toBe(90);
    expect(res.data.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{32}$/);
    expect(res.headers.get("cache-control")).toContain("no-store");
  });

  it("validates like the authorization endpoint, answering JSON errors", async () => {
    const { form } = await pushable();
    expect((await push({ ...form, redirect_uri: "https://evil.example/cb" })).data).toMatchObject({ error: "invalid_request" });
    expect((await push({ ...form, response_type: "token" })).data.error).toBe("unsupported_response_type");
    expect((await push({ ...form, code_challenge_method: "plain" })).data.error).toBe("invalid_request");
    expect((await push({ ...form, request_uri: "urn:ietf:params:oauth:request_uri:x" })).data.error).toBe("invalid_request");
    expect((await push({ ...form, client_id: "someone-else" })).data.error).toBe("invalid_request");
  });

  it("needs client authentication", async () => {
    const { form } = await pushable();
    const res = await postForm(app, PAR, { ...form, client_id: rp.client_id });
    expect(res.status).toBe(401);
    expect(res.data.error).toBe("invalid_client");
    expect((await postForm(app, PAR, form, { basic: [rp.client_id, "wrong"] })).status).toBe(401);
  });

  it("accepts a public client's push (PKCE, no secret)", async () => {
    const spa = await publicApp(app, owner);
    const { form } = await pushable();
    const res = await postForm(app, PAR, { ...form, client_id: spa.client_id });
    expect(res.status).toBe(201);
  });

  it("is taken once: of 50 identical authorization requests at once exactly one goes on", async () => {
    const { request_uri } = (await push((await pushable()).form)).data;
    const answers = await Promise.all(Array.from({ length: 50 }, () => visit(user, authorizePath(request_uri))));
    const onward = answers.filter((a) => a.status === 302);
    expect(onward).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400 && a.body.includes("invalid_request_uri"))).toHaveLength(49);
  });

  it("is bound to the client that pushed it, and another client cannot spend it", async () => {
    const other = await confidentialApp(app, owner);
    const { request_uri } = (await push((await pushable()).form)).data;
    const stolen = await visit(user, authorizePath(request_uri, other.client_id));
    expect(stolen.status).toBe(400);
    expect(stolen.body).toContain("invalid_request_uri");
    expect((await visit(user, authorizePath(request_uri))).status).toBe(302);
  });

  it("expires after 90 seconds", async () => {
    const { request_uri } = (await push((await pushable()).form)).data;
    clock.advance(91_000);
    const late = await visit(user, authorizePath(request_uri));
    expect(late.status).toBe(400);
    expect(late.body).toContain("invalid_request_uri");
  });

  it("uses only the pushed parameters: others sent along are ignored (section 4)", async () => {
    const { request_uri } = (await push((await pushable({ state: "pushed" })).form)).data;
    const path = `${authorizePath(request_uri)}&state=tampered&redirect_uri=${encodeURIComponent("https://evil.example/cb")}`;
    const callback = await authorizeInBrowser(user, new URL(app.url + path));
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get("state")).toBe("pushed");
  });

  it("is required of a client registered with require_pushed_authorization_requests", async () => {
    const strict = await confidentialApp(app, owner, { require_pushed_authorization_requests: true });
    const { form } = await pushable();
    const direct = await visit(user, `/api/oauth/authorize?${new URLSearchParams({ ...form, client_id: strict.client_id })}`);
    expect(direct.status).toBe(400);
    expect(direct.body).toContain("must push its authorization requests");
    const { request_uri } = (await push(form, strict)).data;
    expect((await visit(user, authorizePath(request_uri, strict.client_id))).status).toBe(302);
  });

  it("is advertised in discovery", async () => {
    const meta = (await (await fetch(`${app.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(meta).toMatchObject({ pushed_authorization_request_endpoint: `${app.url}${PAR}`, require_pushed_authorization_requests: false });
  });
});

describe("CAIRN_REQUIRE_PAR=true", () => {
  it("refuses every unpushed authorization request and says so in discovery", async () => {
    const strictApp = await startApp({ env: { CAIRN_REQUIRE_PAR: "true" } });
    try {
      const o = await signUp(strictApp, "owner");
      const r = await confidentialApp(strictApp, o);
      const { form } = await pushable();
      const direct = await visit(o, `/api/oauth/authorize?${new URLSearchParams({ ...form, client_id: r.client_id })}`);
      expect(direct.status).toBe(400);
      const meta = (await (await fetch(`${strictApp.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
      expect(meta.require_pushed_authorization_requests).toBe(true);
    } finally {
      await strictApp.stop();
    }
  });
});
