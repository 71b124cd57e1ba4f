import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { authorizeInBrowser, discover, registerApp } from "../helpers/oauth.ts";
import { authorizePath, basicAuth, interactionIdOf, postForm, signInAgain, TOKEN, visit } from "./oauth.fixtures.ts";

let app: TestApp;
let owner: SignedUp;
let user: SignedUp;
beforeAll(async () => {
  app = await startApp();
  owner = await signUp(app, "owner");
  user = await signUp(app, "alice");
});
afterAll(() => app.stop());

type Entry = { uri: string; match: "equals" | "wildcard" | "regex" };

/** Registers a confidential app with these redirect entries and consents once, so later requests answer at once. */
async function appWith(redirectUris: Entry[]) {
  const registered = await registerApp(owner, { redirect_uris: redirectUris });
  return { clientId: registered.client_id, secret: registered.client_secret as string };
}

/** What the authorization endpoint does with `redirectUri` for `clientId`: to the client (with a code or consent), or our error page. */
async function tryRedirect(who: SignedUp, clientId: string, redirectUri: string) {
  const res = await visit(who, authorizePath({ client_id: clientId, redirect_uri: redirectUri, response_type: "code", scope: "openid", state: "s" }));
  if (res.status === 400) {
    expect(res.location).toBeNull();
    expect(res.headers.get("content-type")).toStartWith("text/html");
    return "refused" as const;
  }
  expect(res.status).toBe(302);
  // Accepted: the user is on their way to consent (first time) or back to the client.
  return res.location?.startsWith("/consent?") || res.location?.startsWith(redirectUri) || res.location?.startsWith(new URL(redirectUri).href)
    ? ("accepted" as const)
    : (res.location as string);
}

/** Runs the flow to the end through `redirectUri` and redeems the code there: proves the URI really works. */
async function completeFlow(who: SignedUp, clientId: string, secret: string, redirectUri: string) {
  const config = await discover(app, clientId, secret);
  const url = client.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: "openid", state: "done" });
  const callback = await authorizeInBrowser(who, url);
  expect(callback.searchParams.get("code")).toBeString();
  const tokens = await client.authorizationCodeGrant(config, callback, { expectedState: "done" }, { redirect_uri: redirectUri });
  expect(tokens.access_token).toBeString();
  return callback;
}

async function registeredUris(clientId: string): Promise<Entry[]> {
  return (await owner.browser.json("GET", `/api/oauth/me/clients/${clientId}`)).data.redirect_uris;
}

describe("spec 1 section 2.2: equals (the default) matches after URL normalization", () => {
  it("accepts the registered URI in another spelling (case of scheme and host, default port)", async () => {
    const { clientId, secret } = await appWith([{ uri: "https://rp.example.com/callback", match: "equals" }]);
    expect(await tryRedirect(user, clientId, "https://rp.example.com/callback")).toBe("accepted");
    expect(await tryRedirect(user, clientId, "HTTPS://RP.Example.COM:443/callback")).toBe("accepted");
    await completeFlow(user, clientId, secret, "https://rp.example.com/callback");
  });

  it("refuses anything else: another path, a trailing slash, a query, another port or host", async () => {
    const { clientId } = await appWith([{ uri: "https://rp.example.com/callback", match: "equals" }]);
    for (const other of [
      "https://rp.example.com/callback/",
      "https://rp.example.com/callback?x=1",
      "https://rp.example.com:8443/callback",
      "https://rp.example.com.evil.test/callback",
      "https://rp.example.com/Callback",
    ])
      expect({ other, result: await tryRedirect(user, clientId, other) }).toEqual({ other, result: "refused" });
  });

  it("a match type that is not given is equals", async () => {
    const registered = await registerApp(owner, { redirect_uris: [{ uri: "https://rp.example.com/cb" }] });
    expect(await registeredUris(registered.client_id)).toEqual([{ uri: "https://rp.example.com/cb", match: "equals" }]);
    expect(await tryRedirect(user, registered.client_id, "https://rp.example.com/cb2")).toBe("refused");
  });
});

describe("RFC 6749 section 3.1.2: the query of a registered redirect URI is kept", () => {
  it("adds code, state and iss next to the registered query parameters", async () => {
    const uri = "https://rp.example.com/cb?tenant=acme";
    const { clientId, secret } = await appWith([{ uri, match: "equals" }]);
    const config = await discover(app, clientId, secret);
    const callback = await authorizeInBrowser(user, client.buildAuthorizationUrl(config, { redirect_uri: uri, scope: "openid", state: "q" }));
    expect(callback.searchParams.get("tenant")).toBe("acme");
    expect(callback.searchParams.get("state")).toBe("q");
    // Raw redemption: openid-client derives redirect_uri from the callback without its query.
    const res = await postForm(
      app,
      TOKEN,
      { grant_type: "authorization_code", code: callback.searchParams.get("code") as string, redirect_uri: uri },
      { headers: { authorization: basicAuth(clientId, secret) } },
    );
    expect(res.status).toBe(200);
    expect(callback.searchParams.get("iss")).toBe(app.url);
    expect(callback.origin + callback.pathname).toBe("https://rp.example.com/cb");
  });
});

describe("spec 1 section 2.2: wildcard", () => {
  it("`*` matches any run of characters; the rest is literal", async () => {
    const { clientId, secret } = await appWith([{ uri: "https://*.rp.example/cb/*", match: "wildcard" }]);
    expect(await tryRedirect(user, clientId, "https://tenant-1.rp.example/cb/done")).toBe("accepted");
    expect(await tryRedirect(user, clientId, "https://a.b.rp.example/cb/x/y?z=1")).toBe("accepted");
    expect(await tryRedirect(user, clientId, "https://tenantXrp.example/cb/done")).toBe("refused"); // the dot is literal
    expect(await tryRedirect(user, clientId, "https://tenant.rp.example/other")).toBe("refused");
    await completeFlow(user, clientId, secret, "https://tenant-2.rp.example/cb/return");
  });

  it("a dot segment cannot climb out of the allowed path", async () => {
    const { clientId } = await appWith([{ uri: "https://rp.example/cb/*", match: "wildcard" }]);
    expect(await tryRedirect(user, clientId, "https://rp.example/cb/../admin")).toBe("refused");
  });
});

describe("spec 1 section 2.2: regex, matched against the whole candidate", () => {
  it("accepts a whole match and refuses a partial one", async () => {
    const { clientId, secret } = await appWith([{ uri: "https://app\\.example\\.com/cb/[0-9]+", match: "regex" }]);
    expect(await tryRedirect(user, clientId, "https://app.example.com/cb/42")).toBe("accepted");
    expect(await tryRedirect(user, clientId, "https://app.example.com/cb/42/more")).toBe("refused");
    expect(await tryRedirect(user, clientId, "https://evil.test/?u=https://app.example.com/cb/42")).toBe("refused");
    expect(await tryRedirect(user, clientId, "https://app.example.com/cb/")).toBe("refused");
    await completeFlow(user, clientId, secret, "https://app.example.com/cb/7");
  });
});

describe("spec 1 section 2.2 rules 1 and 3: the safety gate holds even for a catch-all regex", () => {
  it("a catch-all `.*` accepts any https URL, hostile ones included (permitted but unsafe)", async () => {
    const { clientId, secret } = await appWith([{ uri: ".*", match: "regex" }]);
    expect(await tryRedirect(user, clientId, "https://attacker.test/steal")).toBe("accepted");
    expect(await tryRedirect(user, clientId, "http://localhost:8080/cb")).toBe("accepted"); // http is fine on loopback
    expect(await tryRedirect(user, clientId, "http://127.0.0.1/cb")).toBe("accepted");
    await completeFlow(user, clientId, secret, "https://anything.test/at/all");
  });

  it("but never http to a non-loopback host, userinfo, a fragment, or another scheme", async () => {
    const { clientId } = await appWith([{ uri: ".*", match: "regex" }]);
    for (const hostile of [
      "http://attacker.test/cb",
      "http://127.0.0.1.evil.example/cb",
      "http://localhost.evil.example/cb",
      "https://user:pass@attacker.test/cb",
      "https://user@attacker.test/cb",
      "https://attacker.test/cb#fragment",
      "https://attacker.test/cb#",
      "javascript:alert(1)",
      "data:text/html,hi",
      "myapp://callback",
      "not a url",
    ])
      expect({ hostile, result: await tryRedirect(user, clientId, hostile) }).toEqual({ hostile, result: "refused" });
  });

  it("the dashboard refuses an equals entry that fails the gate", async () => {
    for (const uri of ["http://rp.example.com/cb", "https://u:p@rp.example.com/cb", "https://rp.example.com/cb#x"]) {
      const res = await owner.browser.json("POST", "/api/oauth/me/clients", { name: "bad", redirect_uris: [{ uri, match: "equals" }] });
      expect({ uri, status: res.status }).toEqual({ uri, status: 400 });
    }
  });
});

describe("spec 1 section 2.2 rule 2: an app registered without redirect URIs is locked on first use", () => {
  it("stores the first URI successfully used as an equals entry and refuses any other afterwards", async () => {
    const { clientId, secret } = await appWith([]);
    expect(await registeredUris(clientId)).toEqual([]);
    // Only the gate applies before the lock.
    expect(await tryRedirect(owner, clientId, "http://attacker.test/cb")).toBe("refused");
    await completeFlow(owner, clientId, secret, "https://first.example/cb");
    expect(await registeredUris(clientId)).toEqual([{ uri: "https://first.example/cb", match: "equals" }]);
    expect(await tryRedirect(user, clientId, "https://second.example/cb")).toBe("refused");
    expect(await tryRedirect(user, clientId, "https://first.example/cb")).toBe("accepted");
  });

  it("a request abandoned before a code was issued does not lock the app", async () => {
    const { clientId, secret } = await appWith([]);
    expect(await tryRedirect(owner, clientId, "https://abandoned.example/cb")).toBe("accepted"); // reached consent, never approved
    await completeFlow(owner, clientId, secret, "https://used.example/cb");
    expect(await registeredUris(clientId)).toEqual([{ uri: "https://used.example/cb", match: "equals" }]);
  });

  it("a request begun before the lock cannot finish at another URI after it", async () => {
    const { clientId, secret } = await appWith([]);
    // Bob starts at URI A while signed out: the request waits for his sign-in.
    const bob = await signUp(app, "bob");
    await bob.browser.json("POST", "/api/auth/logout");
    const started = await visit(
      bob,
      authorizePath({ client_id: clientId, redirect_uri: "https://a.example/cb", response_type: "code", scope: "openid", state: "s" }),
    );
    expect(started.location).toStartWith("/login?return_to=");
    // Meanwhile the owner completes a flow at URI B: the app is now locked to B.
    await completeFlow(owner, clientId, secret, "https://b.example/cb");
    // Bob signs in and resumes: no code may be sent to A.
    await signInAgain(bob);
    const resume = `/api/oauth/interaction/${interactionIdOf(started.location as string)}/resume`;
    const res = await visit(bob, resume);
    expect(res.location).toStartWith("/consent?");
    const answer = await bob.browser.json("POST", `/api/oauth/interaction/${interactionIdOf(res.location as string)}`, { decision: "approve" });
    expect(answer.status).toBe(400);
    expect(answer.data.error).toBe("invalid_request");
    expect(JSON.stringify(answer.data)).not.toContain("code=");
    expect(await registeredUris(clientId)).toEqual([{ uri: "https://b.example/cb", match: "equals" }]);
  });
});

describe("issue 18 finding 6: only the owner's first use locks an app", () => {
  it("refuses anyone else's first use on a page: no consent, no code, and the app stays unlocked", async () => {
    const { clientId, secret } = await appWith([]);
    const res = await visit(
      user,
      authorizePath({ client_id: clientId, redirect_uri: "https://attacker.example/cb", response_type: "code", scope: "openid", state: "s" }),
    );
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(await registeredUris(clientId)).toEqual([]);
    // The owner's own first use still locks it, and then anyone may sign in through it.
    await completeFlow(owner, clientId, secret, "https://owner.example/cb");
    expect(await registeredUris(clientId)).toEqual([{ uri: "https://owner.example/cb", match: "equals" }]);
    expect(await tryRedirect(user, clientId, "https://owner.example/cb")).toBe("accepted");
  });
});

describe("RFC 6749 section 4.1.3: the token endpoint wants the very redirect_uri of the request", () => {
  it("refuses a code redeemed with another redirect_uri, even one that is registered too", async () => {
    const { clientId, secret } = await appWith([
      { uri: "https://rp.example.com/one", match: "equals" },
      { uri: "https://rp.example.com/two", match: "equals" },
    ]);
    const config = await discover(app, clientId, secret);
    const callback = await authorizeInBrowser(user, client.buildAuthorizationUrl(config, { redirect_uri: "https://rp.example.com/one", scope: "openid" }));
    const res = await postForm(
      app,
      TOKEN,
      { grant_type: "authorization_code", code: callback.searchParams.get("code") as string, redirect_uri: "https://rp.example.com/two" },
      { headers: { authorization: basicAuth(clientId, secret) } },
    );
    expect(res.status).toBe(400);
    expect(res.data.error).toBe("invalid_grant");
  });
});
