import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { decodeProtectedHeader } from "jose";
import * as client from "openid-client";
import { startApp, type TestApp } from "../helpers/app.ts";
import { signUp, type SignedUp } from "../helpers/identity.ts";
import { authorizeInBrowser, REDIRECT, registerApp } from "../helpers/oauth.ts";

let app: TestApp;
let owner: SignedUp;
beforeAll(async () => {
  app = await startApp();
  owner = await signUp(app, "owner");
});
afterAll(() => app.stop());

const register = (token: string | null, body: unknown) =>
  fetch(`${app.url}/api/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

describe("RFC 7591: dynamic client registration", () => {
  it("registers with openid-client using the session token as initial access token, and the client completes a flow", async () => {
    const config = await client.dynamicClientRegistration(
      new URL(app.url),
      // openid-client authenticates with client_secret_post unless told otherwise: register that method.
      {
        client_name: "Dynamic app",
        redirect_uris: [REDIRECT],
        scope: "openid profile",
        id_token_signed_response_alg: "ML-DSA-65",
        token_endpoint_auth_method: "client_secret_post",
      },
      undefined,
      { initialAccessToken: owner.token, execute: [client.allowInsecureRequests] },
    );
    const meta = config.clientMetadata();
    expect(meta.client_secret).toBeString();
    expect(meta.registration_access_token).toBeString();
    expect(meta.registration_client_uri).toBe(`${app.url}/api/oauth/register/${meta.client_id}`);
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "openid profile", state: "x" });
    const tokens = await client.authorizationCodeGrant(config, await authorizeInBrowser(owner, url), { expectedState: "x" });
    expect(tokens.claims()?.preferred_username).toBe("owner");
  });

  it("accepts a personal access token with apps:write, and refuses one without it or no token", async () => {
    const writer = (await owner.browser.json("POST", "/api/oauth/me/tokens", { name: "w", scopes: ["apps:write"] })).data.secret;
    const reader = (await owner.browser.json("POST", "/api/oauth/me/tokens", { name: "r", scopes: ["apps:read"] })).data.secret;
    expect((await register(writer, { client_name: "By PAT", redirect_uris: [REDIRECT] })).status).toBe(201);
    expect((await register(reader, { client_name: "No", redirect_uris: [REDIRECT] })).status).toBe(403);
    expect((await register(null, { client_name: "No", redirect_uris: [REDIRECT] })).status).toBe(401);
  });

  it("answers invalid_redirect_uri and invalid_client_metadata per RFC 7591 section 3.2.2", async () => {
    const bad = await register(owner.token, { client_name: "x", redirect_uris: ["http://evil.example/cb"] });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("invalid_redirect_uri");
    for (const body of [
      { client_name: "x", token_endpoint_auth_method: "magic" },
      { client_name: "x", response_types: ["token"] },
      { client_name: "x", scope: "openid nonsense" },
      { client_name: "x", id_token_signed_response_alg: "none" },
    ]) {
      const res = await register(owner.token, body);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe("invalid_client_metadata");
    }
  });
});

describe("RFC 7592: client configuration endpoint", () => {
  it("reads, replaces and deletes with the registration access token only, rotating it on each answer", async () => {
    const created = await (await register(owner.token, { client_name: "Managed", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" })).json();
    const uri = created.registration_client_uri as string;
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    expect((await fetch(uri)).status).toBe(401);
    expect((await fetch(uri, { headers: bearer(owner.token) })).status).toBe(401);

    const read = await fetch(uri, { headers: bearer(created.registration_access_token) });
    expect(read.status).toBe(200);
    const info = await read.json();
    expect(info).toMatchObject({ client_id: created.client_id, client_name: "Managed", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" });
    expect(info.client_secret).toBeUndefined();
    // Section 3: every answer carries the registration access token; this one is new, the old one ends.
    expect(info.registration_access_token).toBeString();
    expect((await fetch(uri, { headers: bearer(created.registration_access_token) })).status).toBe(401);

    // Section 2.2: PUT replaces; moving to a secret method issues a secret once.
    const put = (token: string, body: unknown) =>
      fetch(uri, { method: "PUT", headers: { ...bearer(token), "content-type": "application/json" }, body: JSON.stringify(body) });
    const replaced = await put(info.registration_access_token, {
      client_id: created.client_id,
      client_name: "Renamed",
      redirect_uris: ["https://rp.example.com/other"],
      token_endpoint_auth_method: "client_secret_basic",
    });
    expect(replaced.status).toBe(200);
    const after = await replaced.json();
    expect(after.redirect_uris).toEqual(["https://rp.example.com/other"]);
    expect(after.client_secret).toBeString();
    const omitted = await put(after.registration_access_token, { client_id: created.client_id, client_name: "No URIs" });
    expect((await omitted.json()).redirect_uris).toEqual([]); // omitted fields are emptied, not kept
    // That PUT rotated the token again: the one it used is spent.
    expect((await put(after.registration_access_token, { client_name: "x" })).status).toBe(401);
  });

  it("deletes with the current token", async () => {
    const created = await (await register(owner.token, { client_name: "Gone", redirect_uris: [REDIRECT] })).json();
    const uri = created.registration_client_uri as string;
    const auth = { authorization: `Bearer ${created.registration_access_token}` };
    expect((await fetch(uri, { method: "DELETE", headers: auth })).status).toBe(204);
    expect((await fetch(uri, { headers: auth })).status).toBe(401);
  });

  it("answers a PUT naming another client_id with 400", async () => {
    const created = await (await register(owner.token, { client_name: "Mine", redirect_uris: [REDIRECT] })).json();
    const res = await fetch(created.registration_client_uri, {
      method: "PUT",
      headers: { authorization: `Bearer ${created.registration_access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ client_id: "other", client_name: "x" }),
    });
    expect(res.status).toBe(400);
  });
});

describe("OpenID Connect Dynamic Client Registration 1.0 section 2: id_token_signed_response_alg", () => {
  it("defaults to RS256 when omitted: the answer says so, and openid-client verifies the ID token's signature", async () => {
    const config = await client.dynamicClientRegistration(
      new URL(app.url),
      { client_name: "Plain RP", redirect_uris: [REDIRECT], scope: "openid profile", token_endpoint_auth_method: "client_secret_post" },
      undefined,
      // Non-repudiation checks: openid-client verifies the ID token with the JWKS, not only its claims.
      { initialAccessToken: owner.token, execute: [client.allowInsecureRequests, client.enableNonRepudiationChecks] },
    );
    expect(config.clientMetadata().id_token_signed_response_alg).toBe("RS256");
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "openid profile", state: "s" });
    const tokens = await client.authorizationCodeGrant(config, await authorizeInBrowser(owner, url), { expectedState: "s" });
    expect(decodeProtectedHeader(tokens.id_token as string).alg).toBe("RS256");
    expect(tokens.claims()?.preferred_username).toBe("owner");
  });

  it("keeps ML-DSA-65 for a client that names it, and RFC 7592 PUT without the field returns to RS256", async () => {
    const named = await (await register(owner.token, { client_name: "PQ", redirect_uris: [REDIRECT], id_token_signed_response_alg: "ML-DSA-65" })).json();
    expect(named.id_token_signed_response_alg).toBe("ML-DSA-65");
    const put = await fetch(named.registration_client_uri, {
      method: "PUT",
      headers: { authorization: `Bearer ${named.registration_access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ client_id: named.client_id, client_name: "PQ", redirect_uris: [REDIRECT] }),
    });
    expect((await put.json()).id_token_signed_response_alg).toBe("RS256");
  });

  it("leaves apps made in the dashboard at spec 1 section 2.5's ML-DSA-65", async () => {
    expect((await registerApp(owner)).id_token_signed_response_alg).toBe("ML-DSA-65");
  });
});

/*
 * jwks_uri and backchannel_logout_uri are URLs Cairn fetches itself. One whose host is an IP
 * literal the outbound guard refuses (or localhost) can never work: it is refused when registered.
 */
const IPV4_NOT_PUBLIC: [number, number][] = [
  // [first address, size] of loopback, private, CGNAT, link-local (cloud metadata), "this network",
  // benchmarking, documentation, multicast and reserved ranges.
  [ip4(127, 0, 0, 0), 2 ** 24],
  [ip4(10, 0, 0, 0), 2 ** 24],
  [ip4(172, 16, 0, 0), 2 ** 20],
  [ip4(192, 168, 0, 0), 2 ** 16],
  [ip4(100, 64, 0, 0), 2 ** 22],
  [ip4(169, 254, 0, 0), 2 ** 16],
  [ip4(0, 0, 0, 0), 2 ** 24],
  [ip4(198, 18, 0, 0), 2 ** 17],
  [ip4(192, 0, 2, 0), 256],
  [ip4(203, 0, 113, 0), 256],
  [ip4(224, 0, 0, 0), 2 ** 28],
  [ip4(240, 0, 0, 0), 2 ** 28],
];
function ip4(a: number, b: number, c: number, d: number) {
  return ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
}
const bytes = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255] as const;
const hex16 = (n: number) => [(n >>> 16).toString(16), (n & 0xffff).toString(16)] as const;

/** Every way the URL parser accepts to write an IPv4 address as a host (WHATWG URL section 3.5). */
const IPV4_FORMS: ((n: number) => string)[] = [
  (n) => bytes(n).join("."),
  (n) => String(n),
  (n) => `0x${n.toString(16)}`,
  (n) =>
    bytes(n)
      .map((b) => `0x${b.toString(16)}`)
      .join("."),
  (n) =>
    bytes(n)
      .map((b) => `0${b.toString(8)}`)
      .join("."),
  (n) => `${n >>> 24}.${n & 0xffffff}`,
  (n) => `${n >>> 24}.${(n >>> 16) & 255}.${n & 0xffff}`,
  (n) => `${bytes(n).join(".")}.`,
];
/** IPv6 forms that carry an IPv4 address: the guard refuses each whole. */
const EMBEDDING_FORMS: ((n: number) => string)[] = [
  (n) => `[::ffff:${bytes(n).join(".")}]`,
  (n) => `[::FFFF:${hex16(n).join(":").toUpperCase()}]`,
  (n) => `[0:0:0:0:0:ffff:${hex16(n).join(":")}]`,
  (n) => `[::${bytes(n).join(".")}]`,
  (n) => `[64:ff9b::${bytes(n).join(".")}]`,
  (n) => `[2002:${hex16(n).join(":")}::1]`,
];
const hextet = fc.integer({ min: 0, max: 0xffff }).map((h) => h.toString(16));
const IPV6_NOT_PUBLIC = fc.oneof(
  fc.constantFrom("[::1]", "[0:0:0:0:0:0:0:1]", "[::0001]", "[::]"),
  fc.tuple(fc.integer({ min: 0xfe80, max: 0xfebf }), hextet).map(([a, b]) => `[${a.toString(16)}::${b}]`), // link-local
  fc.tuple(fc.integer({ min: 0xfc00, max: 0xfdff }), hextet, hextet).map(([a, b, c]) => `[${a.toString(16)}:${b}::${c}]`), // unique local
  fc.tuple(fc.integer({ min: 0xff00, max: 0xffff }), hextet).map(([a, b]) => `[${a.toString(16)}::${b}]`), // multicast
  hextet.map((h) => `[2001:db8::${h}]`), // documentation
);

type Host = { host: string; loopback: boolean };
const ipv4Host: fc.Arbitrary<Host> = fc
  .tuple(
    fc.constantFrom(...IPV4_NOT_PUBLIC),
    fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
    fc.nat(IPV4_FORMS.length + EMBEDDING_FORMS.length - 1),
  )
  .map(([[start, size], at, form]) => {
    const n = start + Math.floor(at * size);
    const write = [...IPV4_FORMS, ...EMBEDDING_FORMS][form] as (n: number) => string;
    return tagged(write(n));
  });
/** Loopback itself (127.0.0.0/8, ::1) once the URL parser has normalised it: what the tests' switch lets through. */
function tagged(host: string): Host {
  const normal = new URL(`https://${host}`).hostname;
  return { host, loopback: normal.startsWith("127.") || normal === "[::1]" };
}
const notPublicHost: fc.Arbitrary<Host> = fc.oneof(
  ipv4Host,
  IPV6_NOT_PUBLIC.map(tagged),
  fc.constantFrom("localhost", "LOCALHOST", "localhost.", "keys.localhost").map((host) => ({ host, loopback: true })),
);
const FIELDS = ["jwks_uri", "backchannel_logout_uri"] as const;
const bodyWith = (field: (typeof FIELDS)[number], url: string) => ({
  client_name: "x",
  redirect_uris: [REDIRECT],
  ...(field === "jwks_uri" ? { token_endpoint_auth_method: "private_key_jwt", jwks_uri: url } : { backchannel_logout_uri: url }),
});
const clientCount = async (target: TestApp) => ((await target.ctx.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM oauth_clients`))[0] as { n: number }).n;

describe("RFC 7591 section 2: URLs Cairn fetches must name a public host", () => {
  it("refuses loopback, private, link-local and reserved IP literals in any written form, and localhost, with invalid_client_metadata", async () => {
    const before = await clientCount(app);
    await fc.assert(
      fc.asyncProperty(notPublicHost, fc.constantFrom(...FIELDS), fc.integer({ min: 1, max: 65535 }), async ({ host }, field, port) => {
        const res = await register(owner.token, bodyWith(field, `https://${host}:${port}/path`));
        const answer = await res.json();
        expect([host, res.status, answer.error]).toEqual([host, 400, "invalid_client_metadata"]);
        expect(answer.error_description).toStartWith(`${field} must be reachable on the public internet`);
      }),
      { numRuns: 300 },
    );
    expect(await clientCount(app)).toBe(before);
  });

  it("accepts public literals and host names: a name is checked when it is fetched", async () => {
    for (const host of ["8.8.8.8", "[2606:4700:4700::1111]", "keys.example.com", "localtest.me"])
      for (const field of FIELDS) expect([host, field, (await register(owner.token, bodyWith(field, `https://${host}/k`))).status]).toEqual([host, field, 201]);
  });

  it("applies to RFC 7592 PUT, and to the dashboard's registration and update (invalid_request there), changing nothing", async () => {
    const created = await (
      await register(owner.token, { client_name: "Kept", redirect_uris: [REDIRECT], backchannel_logout_uri: "https://rp.example.com/bc" })
    ).json();
    const put = await fetch(created.registration_client_uri, {
      method: "PUT",
      headers: { authorization: `Bearer ${created.registration_access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ client_id: created.client_id, client_name: "Kept", backchannel_logout_uri: "https://169.254.169.254/latest/meta-data" }),
    });
    expect([put.status, (await put.json()).error]).toEqual([400, "invalid_client_metadata"]);

    const before = await clientCount(app);
    const dashboard = await owner.browser.json("POST", "/api/oauth/me/clients", {
      name: "x",
      redirect_uris: [{ uri: REDIRECT, match: "equals" }],
      backchannel_logout_uri: "https://[::ffff:10.0.0.1]/bc",
    });
    expect([dashboard.status, dashboard.data.error]).toEqual([400, "invalid_request"]);
    expect(dashboard.data.error_description).toContain("backchannel_logout_uri must be reachable on the public internet");
    expect(await clientCount(app)).toBe(before);

    const mine = await registerApp(owner, { backchannel_logout_uri: "https://rp.example.com/bc" });
    for (const body of [
      { backchannel_logout_uri: "https://localhost/bc" },
      { token_endpoint_auth_method: "private_key_jwt", jwks_uri: "https://0x7f.1/jwks" },
    ]) {
      const patched = await owner.browser.json("PATCH", `/api/oauth/me/clients/${mine.client_id}`, body);
      expect([patched.status, patched.data.error]).toEqual([400, "invalid_request"]);
      expect(patched.data.error_description).toContain("must be reachable on the public internet");
    }
    const kept = (await owner.browser.json("GET", `/api/oauth/me/clients/${mine.client_id}`)).data;
    expect([kept.backchannel_logout_uri, kept.jwks_uri]).toEqual(["https://rp.example.com/bc", null]);
  });

  it("under the tests' loopback switch, accepts loopback itself and still refuses the rest", async () => {
    const loose = await startApp({ overrides: { outbound: { allowLoopback: true } } });
    try {
      const admin = await signUp(loose, "admin");
      const registerAt = (body: unknown) =>
        fetch(`${loose.url}/api/oauth/register`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${admin.token}` },
          body: JSON.stringify(body),
        });
      await fc.assert(
        fc.asyncProperty(notPublicHost, fc.constantFrom(...FIELDS), async ({ host, loopback }, field) => {
          const res = await registerAt(bodyWith(field, `https://${host}:8443/k`));
          expect([host, res.status]).toEqual([host, loopback ? 201 : 400]);
        }),
        { numRuns: 150 },
      );
    } finally {
      await loose.stop();
    }
  });
});
