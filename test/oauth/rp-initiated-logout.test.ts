import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { manualClock } from "../helpers/clock.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { confidentialApp, obtainTokensRaw, type RegisteredApp, signInAgain, visit } from "./oauth.fixtures.ts";

const END_SESSION = "/api/oauth/end_session";
const AFTER = "https://rp.example.com/logged-out";
const clock = manualClock();
let app: TestApp;
let owner: SignedUp;
let rp: RegisteredApp;
beforeAll(async () => {
  app = await startApp({ overrides: { clock } });
  owner = await signUp(app, "owner");
  rp = await confidentialApp(app, owner, { post_logout_redirect_uris: [AFTER] });
});
afterAll(() => app.stop());

/** A fresh person signed in, with an ID token the app got for them. */
async function signedInWithIdToken(name: string) {
  const who = await signUp(app, name);
  const tokens = await obtainTokensRaw(app, who, rp, "openid");
  return { who, idToken: tokens.id_token as string };
}
const signedIn = async (who: SignedUp) => (await who.browser.json("GET", "/api/auth/session")).status === 200;
const endSession = (who: SignedUp, params: Record<string, string>) => visit(who, `${END_SESSION}?${new URLSearchParams(params)}`);

describe("OIDC RP-Initiated Logout 1.0 with a valid id_token_hint", () => {
  it("signs out at once and returns to the registered post_logout_redirect_uri with state (openid-client's buildEndSessionUrl)", async () => {
    const { who, idToken } = await signedInWithIdToken("alice");
    const url = client.buildEndSessionUrl(rp.config, { id_token_hint: idToken, post_logout_redirect_uri: AFTER, state: "bye" });
    const res = await visit(who, url.pathname + url.search);
    expect(res.status).toBe(302);
    expect(res.location).toBe(`${AFTER}?state=bye`);
    expect(res.headers.get("set-cookie")).toContain("Max-Age=0");
    expect(await signedIn(who)).toBe(false);
  });

  it("takes an expired ID token as a hint", async () => {
    const { who, idToken } = await signedInWithIdToken("bob");
    clock.advance(2 * 3_600_000);
    const res = await endSession(who, { id_token_hint: idToken, post_logout_redirect_uri: AFTER });
    expect(res.location).toBe(AFTER);
    expect(await signedIn(who)).toBe(false);
  });

  it("without a post_logout_redirect_uri, lands on the signed-out page", async () => {
    const { who, idToken } = await signedInWithIdToken("carol");
    const res = await endSession(who, { id_token_hint: idToken });
    expect(res.location).toBe("/logout?done=1");
    expect(await signedIn(who)).toBe(false);
  });
});

describe("a post_logout_redirect_uri registered without a path", () => {
  it("matches what the app sends, exactly as it registered it (kept in URL-normalized form)", async () => {
    const bare = await confidentialApp(app, owner, { post_logout_redirect_uris: ["https://bare.example.com"] });
    const who = await signUp(app, "bare-logout");
    const tokens = await obtainTokensRaw(app, who, bare, "openid");
    const res = await endSession(who, { id_token_hint: tokens.id_token as string, post_logout_redirect_uri: "https://bare.example.com" });
    expect(res.status).toBe(302);
    expect(res.location).toBe("https://bare.example.com/");
    expect(await signedIn(who)).toBe(false);
  });
});

describe("refusals and confirmations", () => {
  it("refuses a post_logout_redirect_uri not registered for the client, and signs nobody out", async () => {
    const { who, idToken } = await signedInWithIdToken("dave");
    const res = await endSession(who, { id_token_hint: idToken, post_logout_redirect_uri: "https://evil.example/after" });
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.body).toContain("post_logout_redirect_uri is not registered for this client");
    // A sign-out has its own words: not the sign-in page's, and a way to sign out of Cairn itself.
    expect(res.body).toContain("<title>This sign-out request cannot continue</title>");
    expect(res.body).toContain("you are still signed in to Cairn");
    expect(res.body).not.toContain("sign-in request");
    expect(res.body).toContain('<a class="btn" href="/logout">Sign out of Cairn</a>');
    expect(await signedIn(who)).toBe(true);
  });

  it("refuses a redirect without a client to check it against, and a client_id that differs from the hint", async () => {
    const { who, idToken } = await signedInWithIdToken("erin");
    expect((await endSession(who, { post_logout_redirect_uri: AFTER })).status).toBe(400);
    const other = await confidentialApp(app, owner);
    expect((await endSession(who, { id_token_hint: idToken, client_id: other.client_id })).status).toBe(400);
    expect(await signedIn(who)).toBe(true);
  });

  it("asks the person to confirm when there is no hint, or a forged one, and signs out only when they do", async () => {
    const { who, idToken } = await signedInWithIdToken("frank");
    const forged = `${idToken.slice(0, -4)}AAAA`;
    const asked: Record<string, string> = { client_id: rp.client_id, post_logout_redirect_uri: AFTER, state: "s" };
    for (const params of [asked, { ...asked, id_token_hint: forged }]) {
      const res = await endSession(who, params);
      expect(res.status).toBe(302);
      expect(res.location).toBe(`/logout?client_id=${rp.client_id}&post_logout_redirect_uri=${encodeURIComponent(AFTER)}&state=s`);
      expect(await signedIn(who)).toBe(true);
    }
    const confirmed = await who.browser.json("POST", END_SESSION, { client_id: rp.client_id, post_logout_redirect_uri: AFTER, state: "s" });
    expect(confirmed.data).toEqual({ redirect_to: `${AFTER}?state=s` });
    expect(await signedIn(who)).toBe(false);
  });

  it("asks for confirmation when the hint names someone other than who is signed in here", async () => {
    const { idToken } = await signedInWithIdToken("gina");
    const { who } = await signedInWithIdToken("hank");
    const res = await endSession(who, { id_token_hint: idToken });
    expect(res.location).toStartWith("/logout");
    expect(await signedIn(who)).toBe(true);
  });

  it("refuses the confirmation from another site", async () => {
    const { who } = await signedInWithIdToken("ivy");
    await signInAgain(who);
    const res = await who.browser.fetch(END_SESSION, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: JSON.stringify({}),
    });
    expect(res.status).toBe(403);
    expect(await signedIn(who)).toBe(true);
  });

  it("is advertised in discovery", async () => {
    const meta = (await (await fetch(`${app.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(meta.end_session_endpoint).toBe(`${app.url}${END_SESSION}`);
  });
});
