import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { confidentialApp, obtainTokens, postForm, publicApp, type RegisteredApp, TOKEN } from "./oauth.fixtures.ts";

const EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ACCESS_TOKEN = "urn:ietf:params:oauth:token-type:access_token";
const WITH_EXCHANGE = ["authorization_code", "refresh_token", EXCHANGE];

let app: TestApp;
let owner: SignedUp;
let user: SignedUp;
/** The API behind the front end: it trades the front end's tokens for its own. */
let api: RegisteredApp;
/** The front end the user signs in to, allowed to hand its access on to `api`. */
let front: RegisteredApp;
beforeAll(async () => {
  app = await startApp();
  owner = await signUp(app, "owner");
  user = await signUp(app, "alice");
  api = await confidentialApp(app, owner, { name: "Photo API", grant_types: WITH_EXCHANGE });
  front = await confidentialApp(app, owner, {
    name: "Photo site",
    grant_types: WITH_EXCHANGE,
    scopes: ["openid", "profile", "email", "offline_access", `app:${api.client_id}:*`],
  });
});
afterAll(() => app.stop());

const exchange = (caller: RegisteredApp, form: Record<string, string> | [string, string][]) =>
  postForm(app, TOKEN, Array.isArray(form) ? [["grant_type", EXCHANGE], ...form] : { grant_type: EXCHANGE, ...form }, {
    basic: [caller.client_id, caller.client_secret],
  });
const introspect = (caller: RegisteredApp, token: string) =>
  postForm(app, "/api/oauth/introspect", { token }, { basic: [caller.client_id, caller.client_secret] });

describe("RFC 8693 per spec 1 section 4.3", () => {
  let subject: string;
  beforeAll(async () => {
    subject = (await obtainTokens(user, front, `openid profile offline_access app:${api.client_id}:*`)).access_token;
  });

  it("shows the cross-app scope on the consent page by the other app's name", async () => {
    // prompt=consent asks again although the user consented: the interaction names the other app.
    const url = client.buildAuthorizationUrl(front.config, {
      redirect_uri: "https://rp.example.com/callback",
      scope: `openid email app:${api.client_id}:*`,
      prompt: "consent",
    });
    const res = await user.browser.fetch(url.pathname + url.search);
    const id = new URL(res.headers.get("location") as string, app.url).searchParams.get("interaction") as string;
    const shown = await user.browser.json("GET", `/api/oauth/interaction/${id}`);
    expect(shown.data.scopes).toContain(`app:${api.client_id}:*`);
    expect(shown.data.apps).toEqual({ [api.client_id]: "Photo API" });
  });

  it("lets the named app exchange the token through openid-client: a new token for the same user, not refreshable", async () => {
    const answer = await client.genericGrantRequest(api.config, EXCHANGE, {
      subject_token: subject,
      subject_token_type: ACCESS_TOKEN,
      audience: "photo-store",
    });
    expect(answer).toMatchObject({ token_type: "bearer", issued_token_type: ACCESS_TOKEN, scope: "openid profile" });
    expect(answer.refresh_token).toBeUndefined();
    expect(answer.id_token).toBeUndefined();
    const info = await introspect(api, answer.access_token);
    expect(info.data).toMatchObject({ active: true, sub: user.user.id, client_id: api.client_id, aud: "photo-store", scope: "openid profile" });
  });

  it("narrows the scope on request, never widens it", async () => {
    const narrowed = await exchange(api, { subject_token: subject, subject_token_type: ACCESS_TOKEN, scope: "openid" });
    expect(narrowed.data.scope).toBe("openid");
    for (const scope of ["openid email", `app:${api.client_id}:*`, "offline_access"]) {
      const wider = await exchange(api, { subject_token: subject, subject_token_type: ACCESS_TOKEN, scope });
      expect(wider.status).toBe(400);
      expect(wider.data.error).toBe("invalid_scope");
    }
  });

  it("takes the audience from repeated resource and audience parameters", async () => {
    const res = await exchange(api, [
      ["subject_token", subject],
      ["subject_token_type", ACCESS_TOKEN],
      ["resource", "https://photos.example/api"],
      ["audience", "thumbnailer"],
    ]);
    expect((await introspect(api, res.data.access_token)).data.aud).toEqual(["https://photos.example/api", "thumbnailer"]);
    const bad = await exchange(api, { subject_token: subject, subject_token_type: ACCESS_TOKEN, resource: "relative/path" });
    expect(bad.data.error).toBe("invalid_target");
  });

  it("lets the app the token was issued to exchange it, and no other", async () => {
    expect((await exchange(front, { subject_token: subject, subject_token_type: ACCESS_TOKEN })).status).toBe(200);
    const stranger = await confidentialApp(app, owner, { grant_types: WITH_EXCHANGE });
    const refused = await exchange(stranger, { subject_token: subject, subject_token_type: ACCESS_TOKEN });
    expect(refused.status).toBe(400);
    expect(refused.data.error).toBe("invalid_grant");
  });

  it("refuses other token types, unknown tokens, public clients and clients without the grant type", async () => {
    expect((await exchange(api, { subject_token: subject, subject_token_type: "urn:ietf:params:oauth:token-type:id_token" })).data.error).toBe(
      "invalid_request",
    );
    expect((await exchange(api, { subject_token: "x".repeat(43), subject_token_type: ACCESS_TOKEN })).data.error).toBe("invalid_grant");
    expect((await exchange(api, { subject_token_type: ACCESS_TOKEN })).data.error).toBe("invalid_request");
    const spa = await publicApp(app, owner, { grant_types: WITH_EXCHANGE });
    const fromSpa = await postForm(app, TOKEN, { grant_type: EXCHANGE, client_id: spa.client_id, subject_token: subject, subject_token_type: ACCESS_TOKEN });
    expect(fromSpa.data.error).toBe("unauthorized_client");
    const plain = await confidentialApp(app, owner);
    expect((await exchange(plain, { subject_token: subject, subject_token_type: ACCESS_TOKEN })).data.error).toBe("unauthorized_client");
  });

  it("answers 50 identical exchanges at once with 50 distinct working tokens", async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => exchange(api, { subject_token: subject, subject_token_type: ACCESS_TOKEN })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const tokens = new Set(answers.map((a) => a.data.access_token as string));
    expect(tokens.size).toBe(50);
    const sample = [...tokens][49] as string;
    expect((await introspect(api, sample)).data.active).toBe(true);
  });

  it("is advertised in discovery", async () => {
    const meta = (await app.json("GET", "/.well-known/openid-configuration")).data;
    expect(meta.grant_types_supported).toContain(EXCHANGE);
  });
});
