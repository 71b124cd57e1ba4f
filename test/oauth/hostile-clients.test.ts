import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { exportJWK, generateKeyPair } from "jose";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { REDIRECT, registerApp } from "../helpers/oauth.ts";

let app: TestApp;
let owner: SignedUp;
beforeAll(async () => {
  app = await startApp();
  owner = await signUp(app, "owner");
});
afterAll(() => app.stop());

const authorize = (params: Record<string, string>) => owner.browser.fetch(`/api/oauth/authorize?${new URLSearchParams(params)}`);
const form = (headers: Record<string, string>, body: string) =>
  fetch(`${app.url}/api/oauth/introspect`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body });

describe("authorization requests a strict server refuses", () => {
  it("an app not yet locked to a redirect URI never redirects an error to an unverified URI", async () => {
    const unlocked = await registerApp(owner, { redirect_uris: [] });
    for (const extra of [{ response_type: "token" }, { response_type: "code", prompt: "none", scope: "nonsense" }] as Record<string, string>[]) {
      const res = await authorize({ client_id: unlocked.client_id, redirect_uri: "https://evil.example/phish", state: "s", scope: "openid", ...extra });
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toContain("text/html");
    }
  });

  it("answers request objects, request_uri and other response modes with their OIDC errors", async () => {
    const rp = await registerApp(owner);
    const base = { client_id: rp.client_id, redirect_uri: REDIRECT, response_type: "code", scope: "openid", state: "s" };
    for (const [extra, error] of [
      [{ request: "eyJ.x.y" }, "request_not_supported"],
      [{ request_uri: "urn:x" }, "request_uri_not_supported"],
      [{ response_mode: "form_post" }, "invalid_request"],
    ] as const) {
      const location = new URL((await authorize({ ...base, ...extra })).headers.get("location") as string);
      expect(location.searchParams.get("error")).toBe(error);
      expect(location.searchParams.get("state")).toBe("s");
      expect(location.searchParams.get("iss")).toBe(app.url);
    }
  });
});

describe("client authentication at introspection", () => {
  it("refuses a public client: introspection needs credentials (RFC 7662 section 2.1)", async () => {
    const pub = await registerApp(owner, { public: true });
    const res = await form({}, `token=abc&client_id=${pub.client_id}`);
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe("invalid_client");
    const meta = (await app.json("GET", "/.well-known/openid-configuration")).data;
    expect(meta.introspection_endpoint_auth_methods_supported).not.toContain("none");
    expect(meta.introspection_endpoint_auth_signing_alg_values_supported).toContain("ES256");
    expect(meta.revocation_endpoint_auth_signing_alg_values_supported).toContain("ES256");
  });

  it("answers a malformed Basic header with 401 invalid_client and a Basic challenge", async () => {
    const res = await form({ authorization: `Basic ${Buffer.from("%zz:%").toString("base64")}` }, "token=abc");
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe("invalid_client");
    expect(res.headers.get("www-authenticate")).toContain("Basic");
  });
});

describe("client metadata", () => {
  it("keeps only public keys in jwks", async () => {
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    for (const jwks of [{ keys: [privateJwk] }, { keys: [{ kty: "x" }] }, { keys: [{ kty: "oct", k: "c2VjcmV0" }] }]) {
      const res = await owner.browser.json("POST", "/api/oauth/me/clients", {
        name: "x",
        redirect_uris: [{ uri: REDIRECT }],
        token_endpoint_auth_method: "private_key_jwt",
        jwks,
      });
      expect(res.status).toBe(400);
    }
  });

  it("registration answers schema errors with invalid_client_metadata", async () => {
    const res = await fetch(`${app.url}/api/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ client_name: "x", redirect_uris: "https://rp.example.com/cb" }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("invalid_client_metadata");
  });
});

describe("RFC 6750 section 3.1", () => {
  it("a request with no credential gets a challenge without an error code", async () => {
    const res = await fetch(`${app.url}/api/oauth/userinfo`);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).not.toContain("error=");
    const bad = await fetch(`${app.url}/api/oauth/userinfo`, { headers: { authorization: "Bearer nope" } });
    expect(bad.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });
});
